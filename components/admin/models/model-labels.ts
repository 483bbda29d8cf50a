import type { ModelRow } from '@/lib/api-client/resources/admin-models'
import type { ModelType, TaskType } from '@/lib/generated/prisma/enums'
import type { BackendKind } from '@/lib/generation/backends/types'
import { MJ_PRICE_KEYS } from '@/lib/models/schemas'
import { MJ_PRICE_LABELS } from '@/lib/mj/actions'
import { taskTypeLabel } from '@/components/create/task-labels'

export type { ModelRow }

/** docs/PRODUCT.md §3.2: Model type labels. */
export const MODEL_TYPE_LABELS: Record<ModelType, string> = { STABLE_DIFFUSION: 'SD', MID_JOURNEY: 'MJ' }

export const BACKEND_LABELS: Record<BackendKind, string> = {
  'sd-webui': 'SD WebUI',
  comfyui: 'ComfyUI',
  'openai-images': 'OpenAI 兼容图像接口',
  'mj-proxy': 'Midjourney 代理',
  demo: '内置演示渲染器',
}

/** What each backend expects in the secret and options fields. */
export const BACKEND_HINTS: Record<BackendKind, { endpoint: string; secret: string; options: string }> = {
  'sd-webui': { endpoint: 'http://127.0.0.1:7860', secret: '启动参数 --api-auth 的“用户名:密码”，未开启认证可留空', options: '一般无需填写' },
  comfyui: {
    endpoint: 'http://127.0.0.1:8188',
    secret: '可选的 Bearer 令牌（经反向代理鉴权时使用）',
    options: '例如 {"workflows": {"txt2img": { …API 格式工作流… }}}',
  },
  'openai-images': { endpoint: 'https://api.example.com/v1', secret: 'API Key', options: '例如 {"model": "gpt-image-1"}' },
  'mj-proxy': { endpoint: 'http://127.0.0.1:8080', secret: 'mj-api-secret，未设置可留空', options: '一般无需填写' },
  demo: { endpoint: '', secret: '演示渲染器无需密钥', options: '例如 {"stepMs": 120}（每步耗时，毫秒）' },
}

/** The task types an SD model can be priced for (points per image); 做同款 and 小狸猫 use the base type's price. */
export const PRICED_TASK_TYPES = ['SD_TEXT2IMG', 'SD_IMG2IMG', 'SD_IMGINPAINT', 'SD_IMGCONTROLNET'] as const satisfies readonly TaskType[]
/** Every price key: SD task types, and Midjourney's per action (an MJ task is priced by what it does, lib/mj/actions.ts). */
export const PRICE_KEYS = [...PRICED_TASK_TYPES, ...MJ_PRICE_KEYS] as const
export type PricedTaskType = (typeof PRICE_KEYS)[number]

/** The price keys a model of this type offers in the form and the table. */
export const priceKeysFor = (type: ModelType): readonly PricedTaskType[] => (type === 'MID_JOURNEY' ? MJ_PRICE_KEYS : PRICED_TASK_TYPES)

export function priceLabel(key: PricedTaskType): string {
  return key in MJ_PRICE_LABELS ? MJ_PRICE_LABELS[key as keyof typeof MJ_PRICE_LABELS] : taskTypeLabel(key)
}

export const backendLabel = (kind: string) => BACKEND_LABELS[kind as BackendKind] ?? kind

export function pricesOf(model: ModelRow): Partial<Record<PricedTaskType, number>> {
  const prices = model.prices
  return prices && typeof prices === 'object' && !Array.isArray(prices) ? (prices as Partial<Record<PricedTaskType, number>>) : {}
}

/** "文生图 2 · 图生图 3" (an MJ model: "生成 8 · 放大 2 ..."), or null when the model offers nothing. */
export function pricesSummary(model: ModelRow): string | null {
  const prices = pricesOf(model)
  const parts = priceKeysFor(model.type)
    .filter((t) => typeof prices[t] === 'number')
    .map((t) => `${priceLabel(t)} ${prices[t]}`)
  return parts.length ? parts.join(' · ') : null
}

/** The last hour's failed share of this instance's attempts: "25%（1/4）", or null without attempts. */
export function failureRate(model: ModelRow): string | null {
  if (!model.recentAttempts) return null
  return `${Math.round((model.recentFailures / model.recentAttempts) * 100)}%（${model.recentFailures}/${model.recentAttempts}）`
}

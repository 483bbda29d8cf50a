import type { ModelRow } from '@/lib/api-client/resources/admin-models'
import type { ModelType, TaskType } from '@/lib/generated/prisma/enums'
import type { BackendKind } from '@/lib/generation/backends/types'
import { MJ_PRICE_KEYS, VIDEO_PRICE_KEYS } from '@/lib/models/rules'
import { MJ_PRICE_LABELS } from '@/lib/mj/actions'
import { taskTypeLabel } from '@/components/create/task-labels'

export type { ModelRow }

/** docs/PRODUCT.md §3.2: Model type labels. */
export const MODEL_TYPE_LABELS: Record<ModelType, string> = { STABLE_DIFFUSION: 'SD', MID_JOURNEY: 'MJ', VIDEO: '视频' }

export const BACKEND_LABELS: Record<BackendKind, string> = {
  'sd-webui': 'SD WebUI',
  comfyui: 'ComfyUI',
  'openai-images': 'OpenAI 兼容图像接口',
  'mj-proxy': 'Midjourney 代理',
  demo: '内置演示渲染器',
  'ark-video': '火山方舟视频（Seedance）',
  'dashscope-video': '阿里云百炼视频（万相）',
  'openai-video': 'OpenAI 兼容视频接口（/v1/videos）',
}

function VIDEO_OPTIONS_HINT(model: string): string {
  return `例如 {"model": "${model}", "durations": [5, 10], "ratios": ["16:9", "9:16", "1:1"], "resolutions": ["480p", "720p", "1080p"], "lastFrame": true, "deadlineMinutes": 30}`
}

/** What each backend expects in the secret and options fields. */
export const BACKEND_HINTS: Record<BackendKind, { endpoint: string; secret: string; options: string }> = {
  'sd-webui': { endpoint: 'http://127.0.0.1:7860', secret: '启动参数 --api-auth 的“用户名:密码”，未开启认证可留空', options: '一般无需填写' },
  comfyui: {
    endpoint: 'http://127.0.0.1:8188',
    secret: '可选的 Bearer 令牌（经反向代理鉴权时使用）',
    options: '例如 {"workflows": {"txt2img": { …API 格式工作流… }}}；视频模型：{"workflows": {"video": { … }}, "fps": 16, "durations": [5]}',
  },
  'openai-images': { endpoint: 'https://api.example.com/v1', secret: 'API Key', options: '例如 {"model": "gpt-image-1"}' },
  'mj-proxy': { endpoint: 'http://127.0.0.1:8080', secret: 'mj-api-secret，未设置可留空', options: '一般无需填写' },
  demo: { endpoint: '', secret: '演示渲染器无需密钥', options: '例如 {"stepMs": 120}（每步耗时，毫秒）' },
  'ark-video': { endpoint: 'https://ark.cn-beijing.volces.com', secret: 'API Key', options: VIDEO_OPTIONS_HINT('doubao-seedance-1-0-pro-250528') },
  'dashscope-video': { endpoint: 'https://dashscope.aliyuncs.com', secret: 'API Key', options: VIDEO_OPTIONS_HINT('wan2.2-i2v-plus') },
  'openai-video': { endpoint: 'https://api.example.com/v1', secret: 'API Key', options: VIDEO_OPTIONS_HINT('sora-2') },
}

/** The task types an SD model can be priced for (points per image); 做同款 and 小狸猫 use the base type's price. */
export const PRICED_TASK_TYPES = ['SD_TEXT2IMG', 'SD_IMG2IMG', 'SD_IMGINPAINT', 'SD_IMGCONTROLNET'] as const satisfies readonly TaskType[]
/** Every price key: SD task types, and Midjourney's per action (an MJ task is priced by what it does, lib/mj/actions.ts). */
export const PRICE_KEYS = [...PRICED_TASK_TYPES, ...MJ_PRICE_KEYS, ...VIDEO_PRICE_KEYS] as const
export type PricedTaskType = (typeof PRICE_KEYS)[number]

/** The price keys a model of this type offers in the form and the table. */
export const priceKeysFor = (type: ModelType): readonly PricedTaskType[] =>
  type === 'MID_JOURNEY' ? MJ_PRICE_KEYS : type === 'VIDEO' ? VIDEO_PRICE_KEYS : PRICED_TASK_TYPES

const VIDEO_PRICE_LABELS: Record<(typeof VIDEO_PRICE_KEYS)[number], string> = {
  VIDEO_TEXT2VIDEO: '文生视频（每条）',
  VIDEO_IMG2VIDEO: '图生视频（每条）',
  VIDEO_PER_SECOND: '视频每秒加价',
}

export function priceLabel(key: PricedTaskType): string {
  if (key in VIDEO_PRICE_LABELS) return VIDEO_PRICE_LABELS[key as keyof typeof VIDEO_PRICE_LABELS]
  return key in MJ_PRICE_LABELS ? MJ_PRICE_LABELS[key as keyof typeof MJ_PRICE_LABELS] : taskTypeLabel(key as TaskType)
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

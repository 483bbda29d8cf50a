// Price keys and type/backend pairs: shared with the console's form, so free of zod (see
// docs/ARCHITECTURE.md, Layers: browser code reaches no zod).
import type { BACKEND_KINDS } from '@/lib/generation/backends/types'

const TASK_TYPES = ['SD_TEXT2IMG', 'SD_IMG2IMG', 'SD_IMGINPAINT', 'SD_IMGCONTROLNET', 'MJ_TEXT2IMG', 'MJ_IMG2IMG', 'MAKE_SAME', 'SD_XIAOLIMAO'] as const
/** Video prices: per clip by task type, plus per second of the clip (docs/PRODUCT.md §3.3). */
export const VIDEO_PRICE_KEYS = ['VIDEO_TEXT2VIDEO', 'VIDEO_IMG2VIDEO', 'VIDEO_PER_SECOND'] as const
/** Midjourney prices per action (imagine covers MJ_TEXT2IMG and MJ_IMG2IMG). */
export const MJ_PRICE_KEYS = ['MJ_IMAGINE', 'MJ_UPSCALE', 'MJ_VARIATION', 'MJ_REROLL', 'MJ_ZOOM', 'MJ_PAN', 'MJ_MODAL', 'MJ_BLEND', 'MJ_DESCRIBE'] as const
export const PRICE_KEYS = [...TASK_TYPES, ...MJ_PRICE_KEYS, ...VIDEO_PRICE_KEYS] as const

/** Model types a backend cannot run: an SD WebUI knows nothing of Midjourney's jobs and buttons. */
const UNSUPPORTED_TYPES: Partial<Record<(typeof BACKEND_KINDS)[number], readonly string[]>> = { 'sd-webui': ['MID_JOURNEY', 'VIDEO'] }
export const MJ_ON_SD_WEBUI_MESSAGE = 'SD WebUI 后端不能运行 MJ 类型的模型，请选择 Midjourney 代理后端'
/** Backends that make only clips, and those that can make them besides pictures. */
export const VIDEO_BACKENDS: readonly string[] = ['ark-video', 'dashscope-video', 'openai-video']
const VIDEO_CAPABLE: readonly string[] = [...VIDEO_BACKENDS, 'comfyui', 'demo']
export const VIDEO_PAIR_MESSAGE = '视频类型的模型请选择视频后端（火山方舟、阿里云百炼、OpenAI 兼容视频接口、ComfyUI 视频工作流或内置演示渲染器）'
export const VIDEO_BACKEND_MESSAGE = '视频后端只能用于视频类型的模型'

export const NO_LAST_FRAME_MESSAGE = 'OpenAI 兼容视频接口（/v1/videos）只接受首帧，不支持尾帧：请去掉选项中的 "lastFrame": true'

/** Why this type cannot run on this backend, or null when it can (the console form asks the same before it sends). */
export function modelPairProblem(type: string, backend: string): string | null {
  if (type === 'VIDEO') return VIDEO_CAPABLE.includes(backend) ? null : VIDEO_PAIR_MESSAGE
  if (VIDEO_BACKENDS.includes(backend)) return VIDEO_BACKEND_MESSAGE
  return UNSUPPORTED_TYPES[backend as (typeof BACKEND_KINDS)[number]]?.includes(type) ? MJ_ON_SD_WEBUI_MESSAGE : null
}

/** The pair's problem, or what the options ask of a backend that cannot do it (a last frame /v1/videos has no field for). */
export function modelSetupProblem(type: string, backend: string, options: unknown): string | null {
  const pair = modelPairProblem(type, backend)
  if (pair) return pair
  const lastFrame = Boolean(options && typeof options === 'object' && (options as Record<string, unknown>).lastFrame === true)
  return backend === 'openai-video' && lastFrame ? NO_LAST_FRAME_MESSAGE : null
}

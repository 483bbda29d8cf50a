import { z } from '@/lib/zod'
import { VIDEO_RATIOS, VIDEO_RESOLUTIONS } from '@/lib/models/video-options'

/** An input frame: an upload's id, or `task:<id>:<n>` for the n-th image (from 0) of one of the user's finished tasks. */
const frame = (what: string) =>
  z
    .string({ error: `请选择${what}` })
    .trim()
    .min(1, `请选择${what}`)
    .max(100)

const base = z.object({
  prompt: z.string().trim().min(1, '请输入提示词').max(2000, '提示词最多 2000 个字符'),
  durationSec: z.number({ error: '请选择时长' }).int('时长必须是整数秒').min(1, '时长至少 1 秒').max(60, '时长最多 60 秒'),
  ratio: z.enum(VIDEO_RATIOS, { error: '画面比例不支持' }).default('16:9'),
  resolution: z.enum(VIDEO_RESOLUTIONS, { error: '分辨率不支持' }).default('720p'),
})

/** docs/PRODUCT.md §3.3: text-to-video takes a prompt and the clip's shape; image-to-video a first frame too, and a last frame where the model supports one. */
export const VIDEO_PARAM_SCHEMAS = {
  VIDEO_TEXT2VIDEO: base.strict(),
  VIDEO_IMG2VIDEO: base.extend({ imageId: frame('首帧图片'), lastImageId: frame('尾帧图片').optional() }).strict(),
} as const

export type VideoTaskType = keyof typeof VIDEO_PARAM_SCHEMAS
export const VIDEO_TASK_TYPES = Object.keys(VIDEO_PARAM_SCHEMAS) as VideoTaskType[]
export const isVideoTaskType = (type: string): type is VideoTaskType => type in VIDEO_PARAM_SCHEMAS

/** `task:<id>:<n>`: the parts, or null for an upload id. */
export function parseResultRef(ref: string): { taskId: string; index: number } | null {
  const match = /^task:([A-Za-z0-9_-]{1,64}):(\d{1,2})$/.exec(ref)
  return match ? { taskId: String(match[1]), index: Number(match[2]) } : null
}

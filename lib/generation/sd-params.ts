import { z } from '@/lib/zod'
import { zSerialIdNumber } from '@/lib/http/params'

/** Sizes in multiples of 8 (what SD expects), 64-2048 px. */
const side = z
  .number()
  .int('尺寸必须是整数')
  .min(64, '尺寸至少 64')
  .max(2048, '尺寸最多 2048')
  .refine((v) => v % 8 === 0, '尺寸必须是 8 的倍数')

/** -1 (random) or a seed SD accepts: an unsigned 32-bit integer. */
const zSeed = () =>
  z
    .number()
    .int()
    .min(-1)
    .max(2 ** 32 - 1)

/** The longest prompt a picture task takes (a preset's trigger words count towards it). */
export const PROMPT_MAX = 2000

export const ZBaseSdParamsSchema = z.object({
  prompt: z.string().trim().min(1, '请输入提示词').max(PROMPT_MAX, `提示词最多 ${PROMPT_MAX} 个字符`),
  negativePrompt: z.string().trim().max(2000, '反向提示词最多 2000 个字符').default(''),
  width: side.default(512),
  height: side.default(512),
  steps: z.number().int().min(1).max(150).default(20),
  cfgScale: z.number().min(1).max(30).default(7),
  seed: zSeed().default(-1),
  sampler: z.string().trim().max(64).nullable().default(null),
  count: z.number().int().min(1, '数量至少为 1').max(4, '一次最多生成 4 张').default(1),
})

const imageId = (what: string) =>
  z
    .string({ error: `请上传${what}` })
    .min(1, `请上传${what}`)
    .max(64)
const denoise = z.number().min(0).max(1)

/** Task types (docs/PRODUCT.md §3.2) and what each takes; the MJ types are validated in lib/mj/params.ts. */
export const TASK_PARAM_SCHEMAS = {
  SD_TEXT2IMG: ZBaseSdParamsSchema.strict(),
  SD_IMG2IMG: ZBaseSdParamsSchema.extend({ initImageId: imageId('参考图'), denoisingStrength: denoise.default(0.6) }).strict(),
  SD_IMGINPAINT: ZBaseSdParamsSchema.extend({
    initImageId: imageId('原图'),
    maskImageId: imageId('蒙版'),
    denoisingStrength: denoise.default(0.75),
  }).strict(),
  SD_IMGCONTROLNET: ZBaseSdParamsSchema.extend({
    controlImageId: imageId('线稿'),
    lineStyle: z.enum(['standard', 'anime']).default('standard'),
    controlWeight: z.number().min(0).max(2).default(1),
  }).strict(),
  SD_XIAOLIMAO: ZBaseSdParamsSchema.partial({ prompt: true }).extend({ customModelId: zSerialIdNumber() }).strict(),
  MAKE_SAME: z.object({ sourceTaskId: z.string().min(1).max(64), seed: zSeed().optional() }).strict(),
} as const

export type SdTaskType = keyof typeof TASK_PARAM_SCHEMAS
export const SD_TASK_TYPES = Object.keys(TASK_PARAM_SCHEMAS) as SdTaskType[]

export type TaskParams<T extends SdTaskType = SdTaskType> = z.output<(typeof TASK_PARAM_SCHEMAS)[T]>

export function parseTaskParams<T extends SdTaskType>(type: T, params: unknown): TaskParams<T> {
  return TASK_PARAM_SCHEMAS[type].parse(params) as TaskParams<T>
}

import { z } from '@/lib/zod'
import { MJ_QUALITIES, MJ_SPEEDS, MJ_VERSIONS, NIJI_VERSIONS, normalizeDashes } from './compose-prompt'

// What the /mj page submits for MJ_TEXT2IMG and MJ_IMG2IMG, and what a button press sends.

const prompt = z.string({ error: '请输入提示词' }).trim().min(1, '请输入提示词').max(2000, '提示词最多 2000 个字符').transform(normalizeDashes)
const imageIds = (min: number, max: number, what: string) =>
  z
    .array(z.string().min(1).max(64), { error: `请上传${what}` })
    .min(min, min === max ? `请上传 ${min} 张${what}` : `${what}至少 ${min} 张`)
    .max(max, min === max ? `请上传 ${min} 张${what}` : `${what}最多 ${max} 张`)

export const ZMjOptionsSchema = z.object({
  aspectRatio: z
    .string()
    .regex(/^\d{1,3}:\d{1,3}$/, '画面比例应为 宽:高，例如 16:9')
    .nullable()
    .default(null),
  version: z.enum(MJ_VERSIONS, { error: '不支持的 MJ 版本' }).nullable().default(null),
  niji: z.enum(NIJI_VERSIONS, { error: '不支持的 Niji 版本' }).nullable().default(null),
  stylize: z.number().int('风格化需为整数').min(0, '风格化范围 0-1000').max(1000, '风格化范围 0-1000').nullable().default(null),
  chaos: z.number().int('混乱度需为整数').min(0, '混乱度范围 0-100').max(100, '混乱度范围 0-100').nullable().default(null),
  quality: z
    .number()
    .refine((v) => (MJ_QUALITIES as readonly number[]).includes(v), `画质只能是 ${MJ_QUALITIES.join('、')}`)
    .nullable()
    .default(null),
  speed: z.enum(MJ_SPEEDS, { error: '速度模式只能是 fast、relax 或 turbo' }).nullable().default(null),
  rawParams: z
    .string()
    .trim()
    .max(500, '额外参数最多 500 个字符')
    .transform(normalizeDashes)
    .refine((v) => v === '' || v.startsWith('--'), '额外参数需以 -- 开头，例如 --no text')
    .refine((v) => !/[\r\n]/.test(v), '额外参数不能换行')
    .default(''),
})

const ZImagineSchema = z.object({ mjAction: z.literal('IMAGINE'), prompt, ...ZMjOptionsSchema.shape })

export const ZMjText2ImgSchema = ZImagineSchema.extend({ mjAction: z.literal('IMAGINE').default('IMAGINE') }).strict()

export const ZMjImg2ImgSchema = z.preprocess(
  (value) => (value && typeof value === 'object' && !('mjAction' in value) ? { ...value, mjAction: 'IMAGINE' } : value),
  z.discriminatedUnion(
    'mjAction',
    [
      ZImagineSchema.extend({ referenceImageIds: imageIds(1, 5, '参考图') }).strict(),
      z
        .object({
          mjAction: z.literal('BLEND'),
          referenceImageIds: imageIds(2, 5, '混图图片'),
          dimensions: z.enum(['PORTRAIT', 'SQUARE', 'LANDSCAPE'], { error: '混图比例只能是竖图、方图或横图' }).default('SQUARE'),
        })
        .strict(),
      z.object({ mjAction: z.literal('DESCRIBE'), referenceImageIds: imageIds(1, 1, '要识别的图片') }).strict(),
    ],
    { error: '不支持的 Midjourney 操作' },
  ),
)

export type TMjSubmission = z.output<typeof ZMjText2ImgSchema> | z.output<typeof ZMjImg2ImgSchema>

/** POST /api/tasks/{id}/action. */
export const ZMjActionSchema = z
  .object({
    customId: z.string({ error: '请选择要执行的操作' }).min(1, '请选择要执行的操作').max(300),
    prompt: z.string().trim().max(2000, '提示词最多 2000 个字符').transform(normalizeDashes).optional(),
    maskImageId: z.string().min(1).max(64).optional(),
  })
  .strict()
export type TMjActionInput = z.infer<typeof ZMjActionSchema>

import { TASK_PARAM_SCHEMAS } from '@/lib/generation/sd-params'
import { imageAddress, updateSchemaOf, z } from '@/lib/zod'

/** Branded presets bound to a backend model (/admin/custom_model_mana; 小狸猫 uses them). */
export const ZCustomModelInputSchema = z
  .object({
    name: z.string().trim().min(1, '请填写名称').max(40),
    modelId: z.string().min(1, '请选择后端模型'),
    checkpoint: z.string().trim().max(200).nullable().default(null),
    lora: z.string().trim().max(200).nullable().default(null),
    triggerWords: z.string().trim().max(500).default(''),
    /** Merged into every 小狸猫 submit of the preset: checked as those submits are, so one bad key cannot refuse them all. */
    defaultParams: z
      .record(z.string(), z.unknown())
      .superRefine((value, ctx) => {
        const checked = TASK_PARAM_SCHEMAS.SD_TEXT2IMG.safeParse({ ...value, prompt: '-' })
        if (!checked.success) ctx.addIssue({ code: 'custom', message: `默认参数不正确：${checked.error.issues[0]?.message ?? ''}` })
      })
      .default({}),
    cover: imageAddress.nullable().default(null),
    price: z.number().int('价格必须是整数').min(0).max(1_000_000),
    enabled: z.boolean().default(true),
    sort: z.number().int().min(-10000).max(10000).default(0),
  })
  .strict()
export const ZCustomModelUpdateSchema = updateSchemaOf(ZCustomModelInputSchema)
export type TCustomModelInput = z.infer<typeof ZCustomModelInputSchema>

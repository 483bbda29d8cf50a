import { updateSchemaOf, z } from '@/lib/zod'

/** Branded presets bound to a backend model (/admin/custom_model_mana; 小狸猫 uses them). */
export const ZCustomModelInputSchema = z
  .object({
    name: z.string().trim().min(1, '请填写名称').max(40),
    modelId: z.string().min(1, '请选择后端模型'),
    checkpoint: z.string().trim().max(200).nullable().default(null),
    lora: z.string().trim().max(200).nullable().default(null),
    triggerWords: z.string().trim().max(500).default(''),
    defaultParams: z.record(z.string(), z.unknown()).default({}),
    cover: z.string().trim().max(500).nullable().default(null),
    price: z.number().int('价格必须是整数').min(0).max(1_000_000),
    enabled: z.boolean().default(true),
    sort: z.number().int().min(-10000).max(10000).default(0),
  })
  .strict()
export const ZCustomModelUpdateSchema = updateSchemaOf(ZCustomModelInputSchema)
export type TCustomModelInput = z.infer<typeof ZCustomModelInputSchema>

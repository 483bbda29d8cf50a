import { imageAddress, updateSchemaOf, z } from '@/lib/zod'

/** Curated prompts users pick on the creation pages (managed on /admin/prompt_mana). */
export const ZPromptInputSchema = z
  .object({
    category: z.string().trim().min(1, '请填写分类').max(20),
    title: z.string().trim().min(1, '请填写标题').max(40),
    prompt: z.string().trim().min(1, '请填写提示词').max(2000),
    negativePrompt: z.string().trim().max(2000).default(''),
    cover: imageAddress.nullable().default(null),
    sort: z.number().int().min(-10000).max(10000).default(0),
    enabled: z.boolean().default(true),
  })
  .strict()
export const ZPromptUpdateSchema = updateSchemaOf(ZPromptInputSchema)
export type TPromptInput = z.infer<typeof ZPromptInputSchema>
export type TPromptUpdate = z.infer<typeof ZPromptUpdateSchema>

import { serviceAddress, z } from '@/lib/zod'
import { BACKEND_KINDS } from '@/lib/generation/backends/types'
import { modelSetupProblem, PRICE_KEYS } from './rules'

/** Points per image by task type; a type that is absent is not offered by this model. */
export const ZPricesSchema = z.partialRecord(z.enum(PRICE_KEYS), z.number().int('价格必须是整数').min(0).max(1_000_000))

export const ZModelInputSchema = z
  .object({
    name: z.string().trim().min(1, '请填写名称').max(40),
    type: z.enum(['STABLE_DIFFUSION', 'MID_JOURNEY', 'VIDEO']).default('STABLE_DIFFUSION'),
    backend: z.enum(BACKEND_KINDS),
    endpoint: serviceAddress.default(''),
    /** Write-only: absent keeps the stored secret, '' removes it. */
    secret: z.string().max(500).optional(),
    checkpoint: z.string().trim().max(200).nullable().default(null),
    prices: ZPricesSchema.default({}),
    options: z.record(z.string(), z.unknown()).default({}),
    concurrency: z.number().int().min(1).max(64).default(1),
    pool: z
      .string()
      .trim()
      .max(40)
      .nullable()
      .default(null)
      .transform((v) => v || null),
    enabled: z.boolean().default(true),
    sort: z.number().int().min(-10000).max(10000).default(0),
  })
  .strict()
  .refine((m) => m.backend === 'demo' || m.endpoint !== '', { message: '请填写接口地址', path: ['endpoint'] })
  .superRefine((m, ctx) => {
    const problem = modelSetupProblem(m.type, m.backend, m.options)
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['backend'] })
  })
export type TModelInput = z.infer<typeof ZModelInputSchema>

export const ZModelUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(40),
    type: z.enum(['STABLE_DIFFUSION', 'MID_JOURNEY', 'VIDEO']),
    backend: z.enum(BACKEND_KINDS),
    endpoint: serviceAddress,
    secret: z.string().max(500),
    checkpoint: z.string().trim().max(200).nullable(),
    prices: ZPricesSchema,
    options: z.record(z.string(), z.unknown()),
    concurrency: z.number().int().min(1).max(64),
    pool: z
      .string()
      .trim()
      .max(40)
      .nullable()
      .transform((v) => v || null),
    enabled: z.boolean(),
    sort: z.number().int().min(-10000).max(10000),
  })
  .partial()
  .strict()
export type TModelUpdate = z.infer<typeof ZModelUpdateSchema>

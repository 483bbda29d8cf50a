import { updateSchemaOf, z } from '@/lib/zod'

export const PRODUCT_TYPES = ['BALANCE', 'POINTS', 'MEMBERSHIP', 'CHAT_MEMBERSHIP'] as const

const positive = (label: string) => z.number().int(`${label}须为整数`).positive(`${label}必须大于 0`).max(100_000_000, `${label}过大`)
const optional = (label: string) => positive(label).nullable().optional()
/** A plan's days: a hundred years at most (永久 is written as 36500), so that its end stays a storable date. */
export const MAX_PLAN_DAYS = 36_500

const fields = {
  type: z.enum(PRODUCT_TYPES, { error: '商品类型只能是 BALANCE、POINTS、MEMBERSHIP 或 CHAT_MEMBERSHIP' }),
  name: z.string().trim().min(1, '请填写名称').max(40, '名称最多 40 个字符'),
  description: z.string().trim().max(200, '说明最多 200 个字符').default(''),
  price: positive('价格（分）'),
  points: optional('积分'),
  balance: optional('到账余额（分）'),
  days: positive('天数').max(MAX_PLAN_DAYS, `天数最多 ${MAX_PLAN_DAYS} 天`).nullable().optional(),
  dailyPoints: optional('每日赠送积分'),
  discountPercent: z.number().int('折扣须为整数').min(1, '折扣为 1-99').max(99, '折扣为 1-99').nullable().optional(),
  dailyMessages: optional('每日对话次数'),
  enabled: z.boolean().default(true),
  sort: z.number().int().min(-1_000_000).max(1_000_000).default(0),
}

type Shape = { type: string; points?: number | null; balance?: number | null; days?: number | null }

/** What each type needs: a points pack its points, a plan its days. */
function complete(p: Shape, ctx: z.RefinementCtx) {
  if (p.type === 'POINTS' && !p.points) ctx.addIssue({ code: 'custom', path: ['points'], message: '积分包需要填写积分数量' })
  if ((p.type === 'MEMBERSHIP' || p.type === 'CHAT_MEMBERSHIP') && !p.days) ctx.addIssue({ code: 'custom', path: ['days'], message: '会员套餐需要填写天数' })
}

export const ZProductSchema = z.object(fields).superRefine(complete)
export type TProduct = z.infer<typeof ZProductSchema>
// Unknown fields are dropped, as this call always did (other PATCH calls refuse them).
export const ZProductPatchSchema = updateSchemaOf(z.object(fields)).strip()
export type TProductPatch = z.infer<typeof ZProductPatchSchema>

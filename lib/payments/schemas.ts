import { z } from '@/lib/zod'
import { zSerialIdNumber } from '@/lib/http/params'

export const ORDER_TYPES = ['BALANCE', 'POINTS', 'MEMBERSHIP', 'CHAT_MEMBERSHIP', 'BUY_VIDEO_MATERIAL', 'BATCH_BUY_VIDEO_MATERIAL'] as const
export const PAY_CHANNELS = ['WECHAT', 'ALIPAY', 'BALANCE'] as const
export const WX_TRADE_TYPES = ['JSAPI', 'NATIVE', 'MWEB', 'APP'] as const
export const ALIPAY_METHODS = ['page', 'wap', 'qr'] as const
export const STATUSES = ['SUCCESS', 'FAIL', 'PENDING', 'CANCELED'] as const

/** POST /api/orders (docs/PRODUCT.md §14). */
export const ZCreateOrderSchema = z.object({
  productId: zSerialIdNumber().optional(),
  type: z.enum(ORDER_TYPES, { error: '订单类型不正确' }),
  /** Cents; a custom balance recharge only. */
  amount: z.number().int('金额须为整数（分）').positive('金额必须大于 0').optional(),
  channel: z.enum(PAY_CHANNELS, { error: '支付方式只能是 WECHAT、ALIPAY 或 BALANCE' }),
  tradeType: z.enum(WX_TRADE_TYPES, { error: '微信支付方式只能是 JSAPI、NATIVE、MWEB 或 APP' }).optional(),
  alipayMethod: z.enum(ALIPAY_METHODS, { error: '支付宝支付方式只能是 page、wap 或 qr' }).optional(),
  videoIds: z.array(z.string().min(1).max(64)).max(100).optional(),
  /** Where the provider's cashier sends the browser back (a path on this site); ?order=<id> is added. */
  returnPath: z.string().max(500).optional(),
})
export type TCreateOrder = z.infer<typeof ZCreateOrderSchema>

/** 2026-02-30 matches the pattern but is no day: Date.parse rolls it over (or fails), so it must come back unchanged. */
function isCalendarDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`)
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day
}
const yyyymmdd = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD')
  .refine(isCalendarDay, '日期不存在')
  // PostgreSQL has no year 0 (a 500), and JavaScript writes years past 9999 with a sign: neither is a day a site has data for.
  .refine((day) => day >= '2000-01-01' && day <= '2999-12-31', '日期需在 2000-01-01 到 2999-12-31 之间')

export const ZAdminOrderQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  type: z.enum(ORDER_TYPES).optional(),
  channel: z.enum(PAY_CHANNELS).optional(),
  status: z.enum(STATUSES).optional(),
  user: z.string().trim().max(64).optional(),
  from: yyyymmdd.optional(),
  to: yyyymmdd.optional(),
})
export type TAdminOrderQuery = z.infer<typeof ZAdminOrderQuery>

export const ZChargeRecordQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  userId: z.string().trim().max(64).optional(),
  type: z.enum(ORDER_TYPES).optional(),
  channel: z.enum(PAY_CHANNELS).optional(),
  status: z.enum(STATUSES).optional(),
  from: yyyymmdd.optional(),
  to: yyyymmdd.optional(),
})
export type TChargeRecordQuery = z.infer<typeof ZChargeRecordQuery>

export const ZDateRange = z.object({ from: yyyymmdd, to: yyyymmdd })
export const ZReason = z.object({ reason: z.string().trim().min(1, '请填写原因').max(200, '原因最多 200 个字符') })
export const ZChargeStatus = z.object({
  status: z.enum(STATUSES, { error: '状态只能是 SUCCESS、FAIL、PENDING 或 CANCELED' }),
  note: z.string().trim().max(200).optional(),
})

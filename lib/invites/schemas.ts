import { z } from '@/lib/zod'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { COMMISSION_ORDER_TYPES } from './order-types'

/** Invite codes: 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L). */
export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'
export const INVITE_CODE_LENGTH = 8

/** What a person types or a link carries: case and surrounding spaces do not matter. */
export function normalizeInviteCode(value: string): string {
  return value.trim().toUpperCase()
}

export const ZInviteCodeSchema = z
  .string({ error: '请输入邀请码' })
  .transform(normalizeInviteCode)
  .pipe(
    z
      .string()
      .min(1, '请输入邀请码')
      .regex(new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`), '邀请码格式不正确，应为 8 位字母或数字'),
  )

/** An invite code riding along a sign-in (from the ?invite= link): optional, never blocks the sign-in. */
export const ZOptionalInviteSchema = z.string().max(32).optional()

export const ZBindInviteSchema = z.object({ code: ZInviteCodeSchema }).strict()

const ZPercent = z.number({ error: '比例须为整数' }).int('比例须为整数').min(0, '比例不能小于 0').max(100, '比例不能超过 100')

export const ZCommissionUpdateSchema = z
  .object({
    rates: z.partialRecord(z.enum(COMMISSION_ORDER_TYPES, { error: '订单类型不正确' }), ZPercent).optional(),
    payAs: z.enum(['BALANCE', 'POINTS'], { error: '佣金发放方式只能是 BALANCE 或 POINTS' }).optional(),
    pointsPerYuan: z.number({ error: '每元积分须为整数' }).int('每元积分须为整数').min(1, '每元积分至少为 1').max(100000, '每元积分最多 100000').optional(),
    inviteReward: z.number({ error: '邀请奖励须为整数' }).int('邀请奖励须为整数').min(0, '邀请奖励不能小于 0').max(1000000, '邀请奖励最多 1000000').optional(),
  })
  .strict()
export type TCommissionUpdate = z.infer<typeof ZCommissionUpdateSchema>

export const ZCommissionRecordQuery = ZPageQuerySchema.extend({
  /** Inviter or invitee: username, name or id. */
  keyword: z.string().trim().max(64).optional(),
  orderType: z.enum(COMMISSION_ORDER_TYPES).optional(),
  status: z.enum(['SUCCESS', 'CANCELED']).optional(),
})
export type TCommissionRecordQuery = z.infer<typeof ZCommissionRecordQuery>

export const ZInviteRelationQuery = ZPageQuerySchema.extend({ keyword: z.string().trim().max(64).optional() })
export type TInviteRelationQuery = z.infer<typeof ZInviteRelationQuery>

/** 张三 → 张*三, ab → a*, 13812345678 → 138****5678: who joined, without saying who exactly. */
export function maskName(name: string): string {
  const chars = Array.from(name)
  if (/^1\d{10}$/.test(name)) return `${name.slice(0, 3)}****${name.slice(-4)}`
  if (chars.length <= 1) return '*'
  if (chars.length === 2) return `${chars[0]}*`
  return `${chars[0]}${'*'.repeat(Math.min(chars.length - 2, 4))}${chars[chars.length - 1]}`
}

/**
 * Commission on a paid amount: a percent of the cents, rounded down; for POINTS, at
 * pointsPerYuan per yuan, rounded down to a whole point. 0 means nothing to credit.
 */
export function commissionFor(amountCents: number, rate: number, payAs: 'BALANCE' | 'POINTS', pointsPerYuan: number): number {
  if (!(amountCents > 0) || !(rate > 0)) return 0
  if (payAs === 'BALANCE') return Math.floor((amountCents * rate) / 100)
  return Math.floor((amountCents * rate * pointsPerYuan) / 10000)
}

import 'server-only'
import type { Tx } from '@/lib/db'
import type { Status } from '@/lib/generated/prisma/enums'
import { extendMembership } from '@/lib/memberships/extend-membership'
import { grantVideos } from '@/lib/videos/video-purchases'
import { creditCommission } from '@/lib/invites/commission'
import { postGrant } from './grant-movements'
import type { OrderGrant } from './order-grant'

/** Who decided that an order is paid. */
export type PaidBy = 'notify' | 'query' | 'admin' | 'balance'

export type Payment = { providerTxnId?: string | null; paidAt?: Date; by: PaidBy }

type Claimed = {
  id: string
  userId: string
  type: string
  channel: string
  amount: number
  grant: unknown
  productId: number | null
  subject: string
  status: Status
  flag: string | null
}

/**
 * The one place an order is fulfilled. A conditional update moves it to SUCCESS (from PENDING,
 * or, for money that arrived after we gave up on the order, from CANCELED or FAIL with a flag);
 * only the caller whose update changed the row credits, in the same transaction: the grant
 * through the ledger, the membership days, the inviter's commission and the charge record. Everyone else gets false.
 */
export async function fulfilOrder(tx: Tx, orderId: string, payment: Payment, options: { late?: boolean } = {}): Promise<boolean> {
  const from: Status[] = options.late ? ['CANCELED', 'FAIL'] : ['PENDING']
  const flag = options.late ? (payment.by === 'admin' ? '管理员在订单关闭后确认到账' : '订单关闭后收到付款，已照常到账') : null
  const rows = await tx.$queryRaw<Claimed[]>`
    UPDATE "Order" SET "status" = 'SUCCESS', "providerTxnId" = COALESCE(${payment.providerTxnId ?? null}, "providerTxnId"),
      "paidAt" = ${payment.paidAt ?? new Date()}, "nextQueryAt" = NULL, "flag" = COALESCE(${flag}, "flag"), "updatedAt" = now()
    WHERE "id" = ${orderId} AND "status"::text = ANY(${from})
    RETURNING "id", "userId", "type"::text AS "type", "channel"::text AS "channel", "amount", "grant", "productId", "subject", "status", "flag"`
  const order = rows[0]
  if (!order) return false

  const grant = order.grant as OrderGrant
  await postGrant(tx, order.userId, grant, { sign: 1, kind: 'ORDER_CREDIT', prefix: `order:${order.id}`, note: order.subject })
  if (grant.days && grant.membership) {
    const period = await extendMembership(tx, order.userId, {
      kind: grant.membership,
      productId: order.productId,
      planName: grant.planName ?? order.subject,
      days: grant.days,
      dailyPoints: grant.dailyPoints,
      discountPercent: grant.discountPercent,
      dailyMessages: grant.dailyMessages,
      paid: { orderId: order.id, amount: order.amount },
    })
    const paidPlan = grant.planName ?? order.subject
    const keptNote =
      period.keptPlan &&
      (period.renewal
        ? `「${paidPlan}」的权益已调低，已保留原权益，顺延 ${daysOf(period)} 天`
        : `「${paidPlan}」低于正在使用的「${period.keptPlan}」，已保留「${period.keptPlan}」的权益，顺延 ${daysOf(period)} 天`)
    const kept = keptNote ? { flag: order.flag ? `${order.flag}；${keptNote}` : keptNote } : null
    await tx.order.update({ where: { id: order.id }, data: { membershipPeriod: period, ...kept } })
  }
  if (grant.videoIds?.length) await grantVideos(tx, order.userId, order.id, grant.videoIds, grant.videoPrices)
  // The inviter's share (docs/PRODUCT.md §17), keyed by the order like everything above.
  await creditCommission(tx, order)
  await tx.chargeRecord.create({
    data: {
      userId: order.userId,
      orderId: order.id,
      type: order.type as never,
      channel: order.channel as never,
      amount: order.amount,
      points: grant.points ?? 0,
      balance: grant.balance ?? 0,
      days: grant.days ?? 0,
      note: flag ?? (payment.by === 'admin' ? '管理员确认到账' : null),
    },
  })
  return true
}

/** Days of a stretch, to one decimal. */
const daysOf = (period: { from: string; to: string }) => Math.round((Date.parse(period.to) - Date.parse(period.from)) / 8_640_000) / 10

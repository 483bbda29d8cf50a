import 'server-only'
import type { Tx } from '@/lib/db'
import { AppError } from '@/lib/http/app-error'
import { postMovement } from '@/lib/ledger/post-movement'
import { commissionFor } from './schemas'
import { getInviteSettings } from './settings'

/** What fulfilment knows of a paid order. */
export type PaidOrder = { id: string; userId: string; type: string; channel: string; amount: number }

export const commissionReference = (orderId: string) => `order:${orderId}:commission`

/**
 * Called by the one fulfilment (lib/payments/fulfil-order.ts) in its transaction: the
 * invitee's inviter gets the rate of this order type, once per order (the record's unique
 * orderId and the ledger reference both say so). Orders paid from the balance earn
 * nothing: that money earned its commission when it was recharged (docs/DECISIONS.md).
 */
export async function creditCommission(tx: Tx, order: PaidOrder): Promise<void> {
  if (order.channel === 'BALANCE') return
  const invitee = await tx.user.findUnique({ where: { id: order.userId }, select: { inviterId: true, name: true } })
  if (!invitee?.inviterId) return
  const settings = await getInviteSettings(tx)
  const rate = settings.rates[order.type as keyof typeof settings.rates] ?? 0
  const amount = commissionFor(order.amount, rate, settings.payAs, settings.pointsPerYuan)
  if (amount <= 0) return
  try {
    await postMovement(tx, {
      userId: invitee.inviterId,
      account: settings.payAs,
      kind: 'COMMISSION',
      amount,
      reference: commissionReference(order.id),
      note: '邀请佣金',
    })
  } catch (error) {
    // The inviter's column at its ceiling: the order is still fulfilled, without commission.
    if (error instanceof AppError) return
    throw error
  }
  await tx.commissionRecord.create({
    data: {
      orderId: order.id,
      inviterId: invitee.inviterId,
      inviteeId: order.userId,
      orderType: order.type as never,
      orderAmount: order.amount,
      rate,
      account: settings.payAs,
      amount,
    },
  })
}

const TAKEN_BACK = '订单退款，佣金已收回'
const KEPT = '订单已退款，但邀请人已使用该佣金，未能收回'
/** True whatever a later refund of the order does: that one finds nothing to take back. */
const NOT_RETURNED = '一次退款被拒后，因邀请人的余额或积分已达上限，收回的佣金未能退回'

/**
 * A refund (lib/payments/refund-order.ts takeBack) takes the order's commission back when
 * the inviter still holds it; when they spent it, the refund goes ahead and the record says so.
 */
export async function takeBackCommission(tx: Tx, orderId: string, refundNo: string): Promise<void> {
  const record = await tx.commissionRecord.findUnique({ where: { orderId } })
  if (!record || record.status !== 'SUCCESS') return
  try {
    await postMovement(tx, {
      userId: record.inviterId,
      account: record.account,
      kind: 'COMMISSION_REVERSAL',
      amount: -record.amount,
      reference: `order:${orderId}:refund:${refundNo}:commission`,
      note: '订单退款，收回佣金',
    })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    await tx.commissionRecord.update({ where: { orderId }, data: { note: KEPT } })
    return
  }
  await tx.commissionRecord.update({ where: { orderId }, data: { status: 'CANCELED', note: TAKEN_BACK } })
}

/**
 * The provider refused the refund (giveBack): a commission taken back by that refund (its
 * ledger entry says so) returns, unless the inviter's column reached its ceiling meanwhile:
 * then the record says so, and the buyer's give-back is not held up for it.
 */
export async function giveBackCommission(tx: Tx, orderId: string, refundNo: string): Promise<void> {
  const record = await tx.commissionRecord.findUnique({ where: { orderId } })
  if (!record) return
  const takenBack =
    record.status === 'CANCELED' &&
    (await tx.ledgerEntry.findUnique({ where: { reference: `order:${orderId}:refund:${refundNo}:commission` }, select: { id: true } })) !== null
  if (takenBack) {
    try {
      await postMovement(tx, {
        userId: record.inviterId,
        account: record.account,
        kind: 'COMMISSION_REVERSAL',
        amount: record.amount,
        reference: `order:${orderId}:refund-undo:${refundNo}:commission`,
        note: '退款失败，退回佣金',
      })
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      await tx.commissionRecord.update({ where: { orderId }, data: { note: NOT_RETURNED } })
      return
    }
  }
  if (takenBack || record.note === KEPT) await tx.commissionRecord.update({ where: { orderId }, data: { status: 'SUCCESS', note: null } })
}

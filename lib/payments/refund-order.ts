import 'server-only'
import { randomInt } from 'node:crypto'
import { db, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { AppError, badRequest, notFound, serviceUnavailable } from '@/lib/http/app-error'
import { postMovement } from '@/lib/ledger/post-movement'
import { takeBackMembership, undoTakeBack, type MembershipPeriod, type MembershipUndo } from '@/lib/memberships/extend-membership'
import { grantVideos, revokeVideos } from '@/lib/videos/video-purchases'
import { giveBackCommission, takeBackCommission } from '@/lib/invites/commission'
import { getOrderForAdmin } from './admin-orders'
import { alipayClient } from './alipay/client'
import { alipayMerchant, wechatMerchant } from './merchants'
import { postGrant } from './grant-movements'
import type { OrderGrant } from './order-grant'
import { centsToYuanString } from './out-trade-no'
import { wechatClient, type WxAnswer } from './wechat/client'

type Refunding = {
  id: string
  userId: string
  outTradeNo: string
  channel: 'WECHAT' | 'ALIPAY' | 'BALANCE'
  amount: number
  grant: OrderGrant
  membershipPeriod: MembershipPeriod | null
  refundNo: string
}

/**
 * An ADMIN refunds a paid order in full. First, in one transaction, the order is claimed for the
 * refund and what it gave is taken back through the ledger (refused with a clear message when the
 * user already spent it); then the provider refunds the money. If the provider refuses, the credit
 * is given back, so the user never loses what they still paid for.
 */
export async function refundOrder(actor: SessionUser, ip: string, orderId: string, reason: string) {
  const order = await db().$transaction(async (tx) => {
    const refundNo = `R${Date.now()}${String(randomInt(1e9)).padStart(9, '0')}`
    const rows = await tx.$queryRaw<Omit<Refunding, 'refundNo'>[]>`
      UPDATE "Order" SET "refundNo" = ${refundNo}, "refundReason" = ${reason}, "updatedAt" = now()
      WHERE "id" = ${orderId} AND "status" = 'SUCCESS' AND "refundNo" IS NULL
      RETURNING "id", "userId", "outTradeNo", "channel"::text AS "channel", "amount", "grant", "membershipPeriod"`
    const claimed = rows[0]
    if (!claimed) {
      const existing = await tx.order.findUnique({ where: { id: orderId }, select: { status: true, refundNo: true } })
      if (!existing) throw notFound('订单不存在')
      throw badRequest(existing.refundNo ? '该订单已退款或正在退款' : '只有支付成功的订单可以退款')
    }
    const refunding = { ...claimed, refundNo }
    const membership = await takeBack(tx, refunding)
    await tx.chargeRecord.updateMany({ where: { orderId }, data: { status: 'CANCELED', note: `已退款：${reason}` } })
    await recordAudit(tx, actor, ip, {
      action: 'order.refund',
      targetType: 'Order',
      targetId: orderId,
      before: { status: 'SUCCESS' },
      after: { refundNo, amount: claimed.amount },
      reason,
    })
    return { ...refunding, membership }
  })

  try {
    await refundAtProvider(order, reason)
  } catch (error) {
    await giveBack(order, order.membership)
    throw error instanceof AppError ? error : serviceUnavailable('支付平台退款失败，请稍后再试')
  }
  await db().order.update({ where: { id: orderId }, data: { refundedAt: new Date() } })
  return getOrderForAdmin(orderId)
}

const SPENT = '用户已使用了本订单获得的积分或余额，无法全额退款'

/** Takes back what the order gave; answers what it did to the membership, for giveBack. */
async function takeBack(tx: Tx, order: Refunding): Promise<MembershipUndo | null> {
  const prefix = `order:${order.id}:refund:${order.refundNo}`
  const g = order.grant
  try {
    await postGrant(tx, order.userId, g, { sign: -1, kind: 'ORDER_REFUND', prefix, note: '订单退款' })
  } catch (error) {
    if (error instanceof AppError && (error.code === 'INSUFFICIENT_POINTS' || error.code === 'BAD_REQUEST')) throw badRequest(SPENT)
    throw error
  }
  const membership =
    g.days && g.membership ? await takeBackMembership(tx, order.userId, g.membership, { id: order.id, days: g.days, period: order.membershipPeriod }) : null
  if (g.videoIds?.length) await revokeVideos(tx, order.id)
  // The inviter's commission, when they still hold it (otherwise the record notes it was kept).
  await takeBackCommission(tx, order.id, order.refundNo)
  // Paid from the balance: the money goes back there.
  if (order.channel === 'BALANCE')
    await postMovement(tx, {
      userId: order.userId,
      account: 'BALANCE',
      kind: 'ORDER_REFUND',
      amount: order.amount,
      reference: `${prefix}:pay`,
      note: '订单退款',
    })
  return membership
}

/** The provider refused: the credit returns and the order is no longer marked as refunding. */
async function giveBack(order: Refunding, membership: MembershipUndo | null): Promise<void> {
  const g = order.grant
  await db().$transaction(async (tx) => {
    await postGrant(tx, order.userId, g, { sign: 1, kind: 'ORDER_REFUND', prefix: `order:${order.id}:refund-undo:${order.refundNo}`, note: '退款失败，退回' })
    if (membership) await undoTakeBack(tx, order.userId, membership)
    if (g.videoIds?.length) await grantVideos(tx, order.userId, order.id, g.videoIds, g.videoPrices)
    await giveBackCommission(tx, order.id, order.refundNo)
    await tx.chargeRecord.updateMany({ where: { orderId: order.id }, data: { status: 'SUCCESS', note: '退款失败' } })
    await tx.order.update({ where: { id: order.id }, data: { refundNo: null, refundReason: null } })
  })
}

async function refundAtProvider(order: Refunding, reason: string): Promise<void> {
  if (order.channel === 'WECHAT') {
    const merchant = await wechatMerchant('settle')
    if (!merchant) throw badRequest('微信支付配置不完整，无法退款')
    const answer = (await wechatClient(merchant).refunds({
      out_trade_no: order.outTradeNo,
      out_refund_no: order.refundNo,
      reason: reason.slice(0, 80),
      amount: { refund: order.amount, total: order.amount, currency: 'CNY' },
    })) as WxAnswer
    const status = (answer.data as { status?: string } | undefined)?.status
    if (answer.status !== 200 || (status !== 'SUCCESS' && status !== 'PROCESSING')) {
      throw serviceUnavailable(`微信支付退款失败：${(answer.data as { message?: string } | undefined)?.message ?? answer.error ?? answer.status}`)
    }
    return
  }
  if (order.channel === 'ALIPAY') {
    const merchant = await alipayMerchant('settle')
    if (!merchant) throw badRequest('支付宝配置不完整，无法退款')
    const result = (await alipayClient(merchant).exec(
      'alipay.trade.refund',
      {
        bizContent: {
          outTradeNo: order.outTradeNo,
          refundAmount: centsToYuanString(order.amount),
          outRequestNo: order.refundNo,
          refundReason: reason.slice(0, 80),
        },
      },
      { validateSign: true },
    )) as Record<string, unknown>
    if (result.code !== '10000') throw serviceUnavailable(`支付宝退款失败：${String(result.subMsg ?? result.msg ?? result.code)}`)
  }
}

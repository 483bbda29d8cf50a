import 'server-only'
import { randomInt } from 'node:crypto'
import { db, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { AppError, badRequest, conflict, notFound, serviceUnavailable } from '@/lib/http/app-error'
import { Prisma } from '@/lib/generated/prisma/client'
import { postMovement } from '@/lib/ledger/post-movement'
import { takeBackMembership, undoTakeBack, type MembershipPeriod, type MembershipUndo } from '@/lib/memberships/extend-membership'
import { grantVideos, revokeVideos } from '@/lib/videos/video-purchases'
import { giveBackCommission, takeBackCommission } from '@/lib/invites/commission'
import { getOrderForAdmin } from './admin-orders'
import { alipayClient } from './alipay/client'
import { alipayMerchant, wechatMerchant, type AlipayMerchant, type WechatMerchant } from './merchants'
import { postGrant } from './grant-movements'
import type { OrderGrant } from './order-grant'
import { centsToYuanString } from './out-trade-no'
import { wechatClient, type WxAnswer } from './wechat/client'

export type Refunding = {
  id: string
  userId: string
  outTradeNo: string
  channel: 'WECHAT' | 'ALIPAY' | 'BALANCE'
  amount: number
  grant: OrderGrant
  membershipPeriod: MembershipPeriod | null
  refundNo: string
  refundReason: string
}

/**
 * An ADMIN refunds a paid order in full. First, in one transaction, the order is claimed for the
 * refund and what it gave is taken back through the ledger (refused with a clear message when the
 * user already spent it); then the provider is asked to refund the money (askProvider). A
 * refusal gives the credit back, so the user never loses what they still paid for. An answer
 * that says neither (a timeout, a 5xx, WeChat's PROCESSING) leaves the order claimed: the
 * worker asks again with the same refund number (retryRefunds), as does an admin's second press.
 * One asking at a time (REFUND_ASKING_LEASE): a press while another is under way is refused,
 * since a provider may refuse a number it is still working on, which would give back a
 * refund it then makes.
 */
export async function refundOrder(actor: SessionUser, ip: string, orderId: string, reason: string) {
  const waiting = await takeAskingTurn(orderId)
  const order = waiting ?? (await claimAndTakeBack(actor, ip, orderId, reason))
  try {
    const answer = await askProvider(order, { askedBefore: waiting !== null })
    if (answer.outcome === 'refused') {
      await giveBack(order, { audit: { actor, ip, message: answer.message } })
      throw answer.badConfig ? badRequest(answer.message) : serviceUnavailable(answer.message)
    }
    if (answer.outcome === 'done') await markRefunded(order)
  } finally {
    await endAskingTurn(order, order.askingUntil)
  }
  return getOrderForAdmin(orderId)
}

export const REFUNDING_COLUMNS = Prisma.sql`"id", "userId", "outTradeNo", "channel"::text AS "channel", "amount", "grant", "membershipPeriod", "refundNo", "refundReason"`

/**
 * How long one asking may hold a refund: well past the provider clients' timeouts (10 s a
 * call; a refund, a query and a platform certificate download at most), so that only an
 * asker that died still holds it when it runs out.
 */
const REFUND_ASKING_LEASE = Prisma.sql`now() + interval '2 minutes'`
export const ASKING_FREE = Prisma.sql`("refundAskingUntil" IS NULL OR "refundAskingUntil" <= now())`

/** A refund with its asking turn: `askingUntil` is the lease this asker wrote, and ends only that one. */
type AskingTurn = Refunding & { askingUntil: Date }
const TURN_COLUMNS = Prisma.sql`${REFUNDING_COLUMNS}, "refundAskingUntil" AS "askingUntil"`

/**
 * An order whose refund was claimed but not yet answered, its asking turn taken: pressing 退款
 * again asks again. Null when the order has no refund awaiting an answer; refused while
 * another asking holds the turn.
 */
async function takeAskingTurn(orderId: string): Promise<AskingTurn | null> {
  const [row] = await db().$queryRaw<AskingTurn[]>`
    UPDATE "Order" SET "refundAskingUntil" = ${REFUND_ASKING_LEASE}
    WHERE "id" = ${orderId} AND "status" = 'SUCCESS' AND "refundNo" IS NOT NULL AND "refundedAt" IS NULL AND ${ASKING_FREE}
    RETURNING ${TURN_COLUMNS}`
  if (row) return row
  const held = await db().order.count({ where: { id: orderId, status: 'SUCCESS', refundNo: { not: null }, refundedAt: null } })
  if (held) throw conflict('该订单的退款正在向支付平台确认，请稍后刷新查看结果')
  return null
}

/** The worker's turn to ask about a refund awaiting its answer (its lease), or null while another asking holds it. */
export async function takeAskingTurnOf(order: Pick<Refunding, 'id' | 'refundNo'>): Promise<Date | null> {
  const [taken] = await db().$queryRaw<{ askingUntil: Date }[]>`
    UPDATE "Order" SET "refundAskingUntil" = ${REFUND_ASKING_LEASE}
    WHERE "id" = ${order.id} AND "refundNo" = ${order.refundNo} AND "refundedAt" IS NULL AND ${ASKING_FREE}
    RETURNING "refundAskingUntil" AS "askingUntil"`
  return taken?.askingUntil ?? null
}

/**
 * The asking has its answer (or gave up): the next press or retry may ask. Only the lease this
 * asker wrote is ended: one that outlived it has been taken by another asking meanwhile. Not
 * ended (the database unreachable), it runs out by itself.
 */
export async function endAskingTurn(order: Pick<Refunding, 'id' | 'refundNo'>, askingUntil: Date): Promise<void> {
  try {
    await db().order.updateMany({ where: { id: order.id, refundNo: order.refundNo, refundAskingUntil: askingUntil }, data: { refundAskingUntil: null } })
  } catch (error) {
    console.error(`[payments] the refund asking turn of ${order.id} is left to run out:`, (error as Error).message)
  }
}

async function claimAndTakeBack(actor: SessionUser, ip: string, orderId: string, reason: string): Promise<AskingTurn> {
  return db().$transaction(async (tx) => {
    const refundNo = `R${Date.now()}${String(randomInt(1e9)).padStart(9, '0')}`
    const [claimed] = await tx.$queryRaw<AskingTurn[]>`
      UPDATE "Order" SET "refundNo" = ${refundNo}, "refundReason" = ${reason}, "refundAskingUntil" = ${REFUND_ASKING_LEASE}, "updatedAt" = now()
      WHERE "id" = ${orderId} AND "status" = 'SUCCESS' AND "refundNo" IS NULL
      RETURNING ${TURN_COLUMNS}`
    if (!claimed) {
      const existing = await tx.order.findUnique({ where: { id: orderId }, select: { status: true, refundNo: true } })
      if (!existing) throw notFound('订单不存在')
      throw badRequest(existing.refundNo ? '该订单已退款或正在退款' : '只有支付成功的订单可以退款')
    }
    const membership = await takeBack(tx, claimed)
    if (membership) await tx.order.update({ where: { id: orderId }, data: { refundUndo: membership as unknown as Prisma.InputJsonValue } })
    await tx.chargeRecord.updateMany({ where: { orderId }, data: { status: 'CANCELED', note: `已退款：${reason}` } })
    await recordAudit(tx, actor, ip, {
      action: 'order.refund',
      targetType: 'Order',
      targetId: orderId,
      before: { status: 'SUCCESS' },
      after: { refundNo, amount: claimed.amount },
      reason,
    })
    return claimed
  })
}

/** The provider confirmed: the refund is done (once, whoever asked). */
export async function markRefunded(order: Refunding): Promise<void> {
  await db().order.updateMany({ where: { id: order.id, refundNo: order.refundNo, refundedAt: null }, data: { refundedAt: new Date() } })
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
    g.days && g.membership
      ? await takeBackMembership(tx, order.userId, g.membership, {
          id: order.id,
          days: g.days,
          period: order.membershipPeriod,
          planName: g.planName ?? undefined,
        })
      : null
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

/**
 * The provider refused: the credit returns and the order is no longer marked as refunding.
 * Only the caller that releases the claim gives back (an admin's press and the worker may
 * both hear the refusal); `flag` tells the console about a refusal no one was waiting for,
 * and `audit` records the admin's press that heard it beside the claim's `order.refund`.
 */
export async function giveBack(order: Refunding, options: { flag?: string; audit?: { actor: SessionUser; ip: string; message: string } } = {}): Promise<void> {
  const { flag, audit } = options
  const g = order.grant
  await db().$transaction(async (tx) => {
    const [held] = await tx.$queryRaw<{ refundUndo: MembershipUndo | null }[]>`
      SELECT "refundUndo" FROM "Order" WHERE "id" = ${order.id} AND "refundNo" = ${order.refundNo} AND "refundedAt" IS NULL FOR UPDATE`
    if (!held) return
    await tx.order.update({
      where: { id: order.id },
      data: { refundNo: null, refundReason: null, refundUndo: Prisma.DbNull, refundAskingUntil: null, ...(flag ? { flag } : {}) },
    })
    await postGrant(tx, order.userId, g, { sign: 1, kind: 'ORDER_REFUND', prefix: `order:${order.id}:refund-undo:${order.refundNo}`, note: '退款失败，退回' })
    if (held.refundUndo) await undoTakeBack(tx, order.userId, held.refundUndo)
    if (g.videoIds?.length) await grantVideos(tx, order.userId, order.id, g.videoIds, g.videoPrices)
    await giveBackCommission(tx, order.id, order.refundNo)
    await tx.chargeRecord.updateMany({ where: { orderId: order.id }, data: { status: 'SUCCESS', note: '退款失败' } })
    if (audit)
      await recordAudit(tx, audit.actor, audit.ip, {
        action: 'order.refund_refused',
        targetType: 'Order',
        targetId: order.id,
        before: { refundNo: order.refundNo },
        after: { status: 'SUCCESS' },
        reason: audit.message,
      })
  })
}

type ProviderAnswer = { outcome: 'done' } | { outcome: 'refused'; message: string; badConfig?: boolean } | { outcome: 'unknown'; message: string }

/**
 * Asks the provider to refund the order with its refund number: asking again with the same
 * number never refunds twice (WeChat's out_refund_no, Alipay's out_request_no). Only a clear
 * refusal is `refused`; an answer that could hide a refund made is `unknown`. Settings found
 * incomplete refuse a first asking; once the number may have reached the provider
 * (`askedBefore`), they say nothing of it, and the refund waits for the settings to be whole.
 */
export async function askProvider(order: Refunding, { askedBefore }: { askedBefore: boolean }): Promise<ProviderAnswer> {
  if (order.channel === 'BALANCE') return { outcome: 'done' }
  const incomplete = (message: string): ProviderAnswer =>
    askedBefore ? { outcome: 'unknown', message: `${message}，暂时无法确认退款` } : { outcome: 'refused', message: `${message}，无法退款`, badConfig: true }
  if (order.channel === 'WECHAT') {
    const merchant = await wechatMerchant('settle')
    return merchant ? askWechat(merchant, order, askedBefore) : incomplete('微信支付配置不完整')
  }
  const merchant = await alipayMerchant('settle')
  if (!merchant) return incomplete('支付宝配置不完整')
  let result: Record<string, unknown>
  try {
    result = (await alipayClient(merchant).exec(
      'alipay.trade.refund',
      {
        bizContent: {
          outTradeNo: order.outTradeNo,
          refundAmount: centsToYuanString(order.amount),
          outRequestNo: order.refundNo,
          refundReason: order.refundReason.slice(0, 80),
        },
      },
      { validateSign: true },
    )) as Record<string, unknown>
  } catch (error) {
    return { outcome: 'unknown', message: `支付宝未确认退款：${(error as Error).message}` }
  }
  const why = String(result.subMsg ?? result.msg ?? result.code)
  if (result.code === '20000' || result.subCode === 'ACQ.SYSTEM_ERROR') return { outcome: 'unknown', message: `支付宝未确认退款：${why}` }
  // fund_change Y: money moved now. N (or none): asked before and made then, or not made (yet).
  // A refusal of a number asked before may be about a trade that the earlier asking refunded.
  // The refund query tells these apart.
  if (result.code === '10000' && result.fundChange === 'Y') return { outcome: 'done' }
  const refused: ProviderAnswer = { outcome: 'refused', message: `支付宝退款失败：${why}` }
  if (result.code !== '10000' && !askedBefore) return refused
  const made = await alipayRefundMade(merchant, order)
  if (made === true) return { outcome: 'done' }
  if (made === false) return result.code === '10000' ? { outcome: 'unknown', message: '支付宝退款处理中' } : refused
  return { outcome: 'unknown', message: `支付宝未确认退款：${made}` }
}

async function askWechat(merchant: WechatMerchant, order: Refunding, askedBefore: boolean): Promise<ProviderAnswer> {
  const answer = (await wechatClient(merchant).refunds({
    out_trade_no: order.outTradeNo,
    out_refund_no: order.refundNo,
    reason: order.refundReason.slice(0, 80),
    amount: { refund: order.amount, total: order.amount, currency: 'CNY' },
  })) as WxAnswer
  if (answer.status === 200) return wechatRefundStatus(answer)
  const why = wechatWhy(answer)
  // WeChat refused the request itself (4xx); no answer, a 429 or a 5xx says nothing of the refund.
  if (answer.status < 400 || answer.status >= 500 || answer.status === 429) return { outcome: 'unknown', message: `微信支付未确认退款：${why}` }
  const refused: ProviderAnswer = { outcome: 'refused', message: `微信支付退款失败：${why}` }
  if (!askedBefore) return refused
  // Asked before, the refusal may be about what the earlier asking did: the refund query tells.
  const query = (await wechatClient(merchant).find_refunds(order.refundNo)) as WxAnswer
  if (query.status === 200) return wechatRefundStatus(query)
  if (query.status === 404) return refused
  return { outcome: 'unknown', message: `微信支付未确认退款：${wechatWhy(query)}` }
}

/** A refund as WeChat shows it, in the answer to asking for it or to querying it. */
function wechatRefundStatus(answer: WxAnswer): ProviderAnswer {
  const status = answer.data?.status
  if (status === 'SUCCESS') return { outcome: 'done' }
  if (status === 'PROCESSING') return { outcome: 'unknown', message: '微信支付退款处理中' }
  return { outcome: 'refused', message: `微信支付退款失败：退款${status === 'CLOSED' ? '已关闭' : '异常'}` }
}

const wechatWhy = (answer: WxAnswer) => String(answer.data?.message ?? answer.error ?? answer.status)

/**
 * Alipay's refund query for this refund number: true when it shows REFUND_SUCCESS, false when it
 * shows no refund (not made, or not yet), or why it could not tell.
 */
async function alipayRefundMade(merchant: AlipayMerchant, order: Refunding): Promise<boolean | string> {
  try {
    const query = (await alipayClient(merchant).exec(
      'alipay.trade.fastpay.refund.query',
      { bizContent: { outTradeNo: order.outTradeNo, outRequestNo: order.refundNo } },
      { validateSign: true },
    )) as Record<string, unknown>
    if (query.code !== '10000') return String(query.subMsg ?? query.msg ?? query.code)
    return query.refundStatus === 'REFUND_SUCCESS'
  } catch (error) {
    return (error as Error).message
  }
}

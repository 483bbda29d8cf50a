import 'server-only'
import { db } from '@/lib/db'
import { alipayClient } from './alipay/client'
import { alipayMerchant, wechatMerchant } from './merchants'
import { yuanStringToCents } from './out-trade-no'
import { REFUNDED_AT_ALIPAY, REFUNDED_AT_WECHAT, settlePaid, type SettleOutcome } from './settle-paid'
import { wechatClient, type WxAnswer } from './wechat/client'
import { ZWechatTransaction } from './wechat/handle-notification'

export type QueriedOrder = { id: string; outTradeNo: string; channel: 'WECHAT' | 'ALIPAY' | 'BALANCE' }

/** What the provider says now: paid (and settled here), closed there (`flag` for the order it cancels), still waiting, or no answer. */
export type ProviderState =
  { state: 'paid'; outcome: SettleOutcome } | { state: 'closed'; flag?: string } | { state: 'waiting' } | { state: 'unknown'; detail: string }

/**
 * The active query (docs/PROTOCOLS.md §11): asks the provider about one order and settles it
 * the way a notification would (the same conditional fulfilment, so a query racing a
 * notification or an admin credits once). A trade the provider closed cancels a pending order,
 * flagged when it was paid and refunded outside the site (WeChat REFUND, Alipay TRADE_CLOSED
 * with a payment date).
 */
export async function queryProvider(order: QueriedOrder): Promise<ProviderState> {
  const state = order.channel === 'WECHAT' ? await queryWechat(order) : order.channel === 'ALIPAY' ? await queryAlipay(order) : ({ state: 'waiting' } as const)
  if (state.state === 'closed' && !(await cancelPending(order.id, state.flag)) && state.flag)
    // Cancelled here already (its last look): still marked refunded, so a repeated paid notification credits nothing.
    await db().order.updateMany({ where: { id: order.id, status: 'CANCELED', flag: null }, data: { flag: state.flag } })
  return state
}

async function queryWechat(order: QueriedOrder): Promise<ProviderState> {
  const merchant = await wechatMerchant('settle')
  if (!merchant) return { state: 'unknown', detail: '未配置微信支付' }
  const answer = (await wechatClient(merchant).query({ out_trade_no: order.outTradeNo })) as WxAnswer
  if (answer.status === 404) return { state: 'waiting' }
  const parsed = ZWechatTransaction.safeParse(answer.data)
  if (answer.status !== 200 || !parsed.success) return { state: 'unknown', detail: answer.error ?? `HTTP ${answer.status}` }
  const t = parsed.data
  // Refunded outside the site (its notification lost): the buyer has the money back, so crediting would give the goods away.
  if (t.trade_state === 'REFUND') return { state: 'closed', flag: REFUNDED_AT_WECHAT }
  if (t.trade_state === 'SUCCESS') {
    const outcome = await settlePaid(
      {
        channel: 'WECHAT',
        outTradeNo: t.out_trade_no,
        providerTxnId: t.transaction_id ?? null,
        amount: t.amount.total,
        merchantMatches: t.mchid === merchant.mchId && t.appid === merchant.appId && t.out_trade_no === order.outTradeNo,
        paidAt: t.success_time ? new Date(t.success_time) : undefined,
      },
      'query',
    )
    return { state: 'paid', outcome }
  }
  if (t.trade_state === 'CLOSED' || t.trade_state === 'REVOKED' || t.trade_state === 'PAYERROR') return { state: 'closed' }
  return { state: 'waiting' }
}

async function queryAlipay(order: QueriedOrder): Promise<ProviderState> {
  const merchant = await alipayMerchant('settle')
  if (!merchant) return { state: 'unknown', detail: '未配置支付宝' }
  let result: Record<string, unknown>
  try {
    result = (await alipayClient(merchant).exec('alipay.trade.query', { bizContent: { outTradeNo: order.outTradeNo } }, { validateSign: true })) as Record<
      string,
      unknown
    >
  } catch (error) {
    return { state: 'unknown', detail: (error as Error).message }
  }
  // Page and wap trades exist at Alipay only once the buyer opened the cashier.
  if (result.subCode === 'ACQ.TRADE_NOT_EXIST') return { state: 'waiting' }
  if (result.code !== '10000') return { state: 'unknown', detail: String(result.subMsg ?? result.msg ?? result.code) }
  const status = String(result.tradeStatus ?? '')
  if (status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED') {
    const outcome = await settlePaid(
      {
        channel: 'ALIPAY',
        outTradeNo: order.outTradeNo,
        providerTxnId: typeof result.tradeNo === 'string' ? result.tradeNo : null,
        amount: yuanStringToCents(String(result.totalAmount ?? '')) ?? -1,
        merchantMatches: result.outTradeNo === order.outTradeNo,
      },
      'query',
    )
    return { state: 'paid', outcome }
  }
  // Closed unpaid, or paid (it has a payment date) and then refunded in full outside the site.
  if (status === 'TRADE_CLOSED') return result.sendPayDate ? { state: 'closed', flag: REFUNDED_AT_ALIPAY } : { state: 'closed' }
  return { state: 'waiting' }
}

/**
 * What closing a trade came to: `closed`, it can no longer be paid; `payable`, the order may be
 * cancelled but the trade may still be paid until it expires (Alipay makes a page or wap trade
 * only when the buyer opens the cashier, so there was nothing to close yet); `false`, the
 * order must stay pending.
 */
export type CloseOutcome = 'closed' | 'payable' | false

/**
 * Closes the trade at the provider so it can no longer be paid. When the provider says it was
 * paid meanwhile, the payment is settled instead. After a refused close the order may be
 * cancelled only when the query says the trade is closed or still unpaid. A query without an
 * answer leaves the order pending for the next round: cancelling it then would keep a payment
 * whose notification was lost without crediting it. So do incomplete merchant settings (an
 * operator changing keys).
 */
export async function closeAtProvider(order: QueriedOrder): Promise<CloseOutcome> {
  if (order.channel === 'WECHAT') {
    const merchant = await wechatMerchant('settle')
    if (!merchant) return false // settings incomplete: the trade cannot be closed nor asked about
    const answer = (await wechatClient(merchant).close(order.outTradeNo)) as WxAnswer
    if (answer.status === 204 || answer.status === 404) return 'closed'
    const code = (answer.data as { code?: string } | undefined)?.code
    if (code === 'ORDERPAID' || code === 'ORDER_CLOSED') return mayCancelAfterQuery(order)
    return false
  }
  if (order.channel === 'ALIPAY') {
    const merchant = await alipayMerchant('settle')
    if (!merchant) return false // settings incomplete: the trade cannot be closed nor asked about
    let result: Record<string, unknown>
    try {
      result = (await alipayClient(merchant).exec('alipay.trade.close', { bizContent: { outTradeNo: order.outTradeNo } }, { validateSign: true })) as Record<
        string,
        unknown
      >
    } catch {
      return false
    }
    if (result.code === '10000') return 'closed'
    if (result.subCode === 'ACQ.TRADE_NOT_EXIST') return 'payable'
    return mayCancelAfterQuery(order)
  }
  return 'closed'
}

async function mayCancelAfterQuery(order: QueriedOrder): Promise<CloseOutcome> {
  const { state } = await queryProvider(order)
  return state === 'closed' ? 'closed' : state === 'waiting' ? 'payable' : false
}

/** How long after a payable trade's expiry it is asked about one last time (a payment's notification can take a minute or two). */
export const LAST_LOOK_AFTER_EXPIRY_MS = 2 * 60_000

/**
 * Cancels a pending order after its close. A trade that may still be paid is asked about once
 * more after it expires, so a payment whose notification is lost is still found and credited
 * (as money arriving after a close is).
 */
export function cancelAfterClose(order: { id: string; expiresAt: Date }, outcome: 'closed' | 'payable', now = new Date()): Promise<boolean> {
  const lastLook = new Date(Math.max(order.expiresAt.getTime(), now.getTime()) + LAST_LOOK_AFTER_EXPIRY_MS)
  return cancelPending(order.id, undefined, outcome === 'payable' ? lastLook : null)
}

/** PENDING → CANCELED (one conditional update: a payment settled meanwhile wins), flagged when `flag` is given. */
export async function cancelPending(orderId: string, flag?: string, lastLookAt: Date | null = null): Promise<boolean> {
  const { count } = await db().order.updateMany({
    where: { id: orderId, status: 'PENDING' },
    data: { status: 'CANCELED', closedAt: new Date(), nextQueryAt: lastLookAt, ...(flag ? { flag } : {}) },
  })
  return count === 1
}

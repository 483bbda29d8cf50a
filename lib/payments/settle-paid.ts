import 'server-only'
import { countWithin } from '@/lib/auth/rate-limit'
import { db, type Tx } from '@/lib/db'
import type { PayChannel } from '@/lib/generated/prisma/enums'
import { fulfilOrder, type PaidBy } from './fulfil-order'

/** What a provider says about a paid order, after its signature was checked. */
export type ProviderPaid = {
  channel: Exclude<PayChannel, 'BALANCE'>
  outTradeNo: string
  providerTxnId: string | null
  /** Cents, as the provider reports them. */
  amount: number
  /** The provider's merchant and app ids matched ours. */
  merchantMatches: boolean
  paidAt?: Date
}

export type NotificationRecord = { eventId: string | null; raw: string }

export type SettleOutcome = 'credited' | 'late' | 'duplicate' | 'mismatch' | 'unknown-order'

/** The flag of an order cancelled because its trade was refunded in WeChat Pay's merchant platform. */
export const REFUNDED_AT_WECHAT = '该订单已在微信支付商户平台退款，未发放'
/** The same at Alipay: its trade was paid, then refunded in full, and Alipay closed it. */
export const REFUNDED_AT_ALIPAY = '该订单已在支付宝退款，未发放'
/** The flag of a fulfilled order whose trade was refunded at Alipay, outside the site: a human takes the grant back. */
export const REFUNDED_AT_ALIPAY_AFTER_GRANT = '该订单已在支付宝退款，但已发放，请核实后收回'

/** Why an order cancelled as refunded at its provider may not be fulfilled, by its flag. */
const REFUNDED_AT_PROVIDER = new Map([
  [REFUNDED_AT_WECHAT, '该订单已在微信支付商户平台退款，不能标记为已支付'],
  [REFUNDED_AT_ALIPAY, '该订单已在支付宝退款，不能标记为已支付'],
])

/** The buyer has this order's money back: a "paid" for it is stale, and fulfilling it would give the grant for nothing. */
export function refundedAtProvider(order: { status: string; flag: string | null }): string | null {
  return order.status === 'CANCELED' && order.flag !== null ? (REFUNDED_AT_PROVIDER.get(order.flag) ?? null) : null
}

/**
 * A verified "paid" from the provider (a notification or an active query): checks it against the
 * order and fulfils it once. A mismatch (amount, merchant, unknown order) credits nothing and flags
 * the order for a human. Money that arrives for an order we closed is credited and flagged, unless
 * the trade was refunded at the provider. The notification's record is written in the same
 * transaction as the outcome.
 */
export async function settlePaid(paid: ProviderPaid, by: PaidBy, record?: NotificationRecord): Promise<SettleOutcome> {
  return db().$transaction(async (tx) => {
    // Locked, so a query cancelling it as refunded at the provider cannot land between this read and the late fulfilment.
    const [order] = await tx.$queryRaw<{ id: string; amount: number; channel: string; status: string; flag: string | null }[]>`
      SELECT "id", "amount", "channel"::text AS "channel", "status"::text AS "status", "flag"
      FROM "Order" WHERE "outTradeNo" = ${paid.outTradeNo} FOR UPDATE`
    const write = (outcome: SettleOutcome, detail?: string) =>
      record ? recordNotification(tx, paid.channel, order?.id ?? null, paid.outTradeNo, record, outcome, detail) : undefined

    if (!order) {
      await write('unknown-order', '找不到这个商户订单号')
      return 'unknown-order'
    }
    const problem = !paid.merchantMatches
      ? '商户号或应用 ID 与本站不符'
      : order.channel !== paid.channel
        ? '支付渠道与订单不符'
        : paid.amount !== order.amount
          ? `金额不符：支付平台 ${paid.amount} 分，订单 ${order.amount} 分`
          : null
    if (problem) {
      await tx.order.update({ where: { id: order.id }, data: { flag: problem } })
      await write('mismatch', problem)
      return 'mismatch'
    }
    const payment = { providerTxnId: paid.providerTxnId, paidAt: paid.paidAt, by }
    if (await fulfilOrder(tx, order.id, payment)) {
      await write('credited')
      return 'credited'
    }
    // The buyer has this money back (the providers repeat a paid notification for a day or more after the refund).
    if (refundedAtProvider(order)) {
      await write('mismatch', order.flag!)
      return 'mismatch'
    }
    if (order.status !== 'SUCCESS' && (await fulfilOrder(tx, order.id, payment, { late: true }))) {
      await write('late', '订单关闭后收到付款')
      return 'late'
    }
    await write('duplicate')
    return 'duplicate'
  })
}

export async function recordNotification(
  tx: Tx,
  channel: Exclude<PayChannel, 'BALANCE'>,
  orderId: string | null,
  outTradeNo: string | null,
  record: NotificationRecord,
  outcome: string,
  detail?: string,
): Promise<void> {
  // Anyone can post a notification, and PostgreSQL text cannot hold U+0000: kept escaped, not refused with a 500.
  const text = <T extends string | null | undefined>(value: T) => value?.replaceAll('\u0000', '\\u0000') as T
  await tx.paymentNotification.create({
    data: {
      channel,
      orderId,
      outTradeNo: text(outTradeNo),
      eventId: text(record.eventId),
      outcome,
      detail: text(detail?.slice(0, 500)),
      raw: text(record.raw.slice(0, 16_000)),
    },
  })
}

/** Rejected notifications kept per sending address and window, and how much of each body. */
export const REJECTED_KEPT = { perAddress: 60, windowSeconds: 600, rawChars: 2_000 }

/**
 * A notification that failed its signature or could not be decrypted or parsed: kept for
 * the console, but anyone can post them, so at most REJECTED_KEPT.perAddress per address in
 * ten minutes and the first 2,000 characters of each. Past that they are answered as before
 * and not kept.
 */
export async function recordRejected(
  channel: Exclude<PayChannel, 'BALANCE'>,
  ip: string,
  outTradeNo: string | null,
  raw: string,
  detail: string,
): Promise<void> {
  const limit = { key: `pay-notify-rejected:${ip}`, max: REJECTED_KEPT.perAddress, windowSeconds: REJECTED_KEPT.windowSeconds }
  if (!(await countWithin(limit))) return
  await db().$transaction((tx) =>
    recordNotification(tx, channel, null, outTradeNo, { eventId: null, raw: raw.slice(0, REJECTED_KEPT.rawChars) }, 'rejected', detail),
  )
}

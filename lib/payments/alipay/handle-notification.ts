import 'server-only'
import { db } from '@/lib/db'
import { alipayMerchant, type AlipayMerchant } from '../merchants'
import { yuanStringToCents } from '../out-trade-no'
import { recordNotification, recordRejected, REFUNDED_AT_ALIPAY, REFUNDED_AT_ALIPAY_AFTER_GRANT, settlePaid } from '../settle-paid'
import { alipayClient } from './client'

/** Alipay stops retrying only on the exact body `success`. */
export type AlipayReply = { status: 200 | 400 | 500; body: 'success' | 'fail' }

const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED'])

/**
 * POST /api/pay/alipay/notify: the form body checked with alipay-sdk's checkNotifySignV2 (values
 * as received), then app_id, seller_id (when configured) and total_amount against the order.
 * TRADE_SUCCESS and TRADE_FINISHED take the same fulfilment, so the later FINISHED never credits
 * twice; TRADE_CLOSED of a pending order cancels it.
 */
export async function handleAlipayNotification(rawBody: string, ip: string): Promise<AlipayReply> {
  const merchant = await alipayMerchant('settle')
  if (!merchant) return { status: 500, body: 'fail' }
  const params = Object.fromEntries(new URLSearchParams(rawBody))
  const { sign: _sign, ...unsigned } = params
  const record = { eventId: params.notify_id ?? null, raw: new URLSearchParams(unsigned).toString() }
  const outTradeNo = params.out_trade_no ?? null

  if (!signedByAlipay(merchant, params)) {
    await recordRejected('ALIPAY', ip, outTradeNo, record.raw, '签名错误')
    return { status: 400, body: 'fail' }
  }
  if (!outTradeNo) return { status: 400, body: 'fail' }

  const status = params.trade_status ?? ''
  if (!PAID.has(status)) {
    // TRADE_CLOSED comes for a trade closed unpaid, or paid and refunded in full (then with the refund's fields).
    const refunded = status === 'TRADE_CLOSED' && Boolean(params.gmt_refund || Number(params.refund_fee) > 0)
    await db().$transaction(async (tx) => {
      const order = await tx.order.findUnique({ where: { outTradeNo }, select: { id: true } })
      if (order && status === 'TRADE_CLOSED') {
        const closed = { status: 'CANCELED', closedAt: new Date(), nextQueryAt: null } as const
        await tx.order.updateMany({ where: { id: order.id, status: 'PENDING' }, data: refunded ? { ...closed, flag: REFUNDED_AT_ALIPAY } : closed })
        if (refunded) {
          // Cancelled here already while its trade could still be paid (a last look is due): a repeated paid notification is stale too.
          await tx.order.updateMany({ where: { id: order.id, status: 'CANCELED', flag: null }, data: { flag: REFUNDED_AT_ALIPAY } })
          // Fulfilled here, then refunded in Alipay's own platform (a refund from the console has its refundNo): added to any earlier flag.
          await tx.$executeRaw`
            UPDATE "Order" SET "flag" = CASE WHEN "flag" IS NULL THEN ${REFUNDED_AT_ALIPAY_AFTER_GRANT} ELSE "flag" || '；' || ${REFUNDED_AT_ALIPAY_AFTER_GRANT} END
            WHERE "id" = ${order.id} AND "status" = 'SUCCESS' AND "refundNo" IS NULL`
        }
      }
      await recordNotification(tx, 'ALIPAY', order?.id ?? null, outTradeNo, record, 'ignored', status)
    })
    return { status: 200, body: 'success' }
  }

  await settlePaid(
    {
      channel: 'ALIPAY',
      outTradeNo,
      providerTxnId: params.trade_no ?? null,
      amount: yuanStringToCents(params.total_amount) ?? -1,
      merchantMatches: params.app_id === merchant.appId && (!merchant.sellerId || params.seller_id === merchant.sellerId),
      paidAt: params.gmt_payment ? new Date(`${params.gmt_payment.replace(' ', 'T')}+08:00`) : undefined,
    },
    'notify',
    record,
  )
  return { status: 200, body: 'success' }
}

/** alipay-sdk throws on a sign_type it does not know (a forged body): that is a bad signature too, not a 500. */
function signedByAlipay(merchant: AlipayMerchant, params: Record<string, string>): boolean {
  try {
    return alipayClient(merchant).checkNotifySignV2(params)
  } catch {
    return false
  }
}

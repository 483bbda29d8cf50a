import 'server-only'
import { db } from '@/lib/db'
import { clientIp } from '@/lib/http/client-ip'
import { z } from '@/lib/zod'
import { wechatMerchant } from '../merchants'
import { recordNotification, recordRejected, settlePaid } from '../settle-paid'
import { ensurePlatformKey, platformKey } from './client'
import { decryptResource, signedMessageOf, verifyWechatSignature } from './notification-crypto'

/** How the notify route answers WeChat: 204 when handled, a FAIL body otherwise (WeChat retries those). */
export type WechatReply = { status: 204 } | { status: 400 | 401 | 500; body: { code: 'FAIL'; message: string } }

const ZEnvelope = z.object({
  id: z.string().max(64),
  event_type: z.string(),
  resource: z.object({ algorithm: z.string(), ciphertext: z.string(), associated_data: z.string().optional(), nonce: z.string() }),
})

/** The decrypted transaction (docs/PROTOCOLS.md §9): what we check and keep. */
export const ZWechatTransaction = z.object({
  mchid: z.string(),
  appid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.string(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int(), currency: z.string().optional() }),
})

const fail = (status: 400 | 401 | 500, message: string): WechatReply => ({ status, body: { code: 'FAIL', message } })

/**
 * POST /api/pay/wechat/notify. Signature (key by Wechatpay-Serial, 5-minute window) before
 * anything else, then the AES-256-GCM resource with its tag checked, then the business checks
 * and the single fulfilment. A verified notification that does not match the order is answered
 * 204 (so WeChat stops), credits nothing and flags the order.
 */
export async function handleWechatNotification(headers: Headers, rawBody: string): Promise<WechatReply> {
  const merchant = await wechatMerchant('settle')
  if (!merchant) return fail(500, '未配置微信支付')
  const signed = signedMessageOf(headers, rawBody)
  await ensurePlatformKey(merchant, signed.serial)
  const verdict = verifyWechatSignature(signed, (serial) => platformKey(merchant, serial))
  if (!verdict.ok) {
    await recordRejected('WECHAT', clientIp(headers), null, rawBody, verdict.reason)
    return fail(401, verdict.reason)
  }

  let envelope: z.infer<typeof ZEnvelope>
  let transaction: z.infer<typeof ZWechatTransaction>
  try {
    envelope = ZEnvelope.parse(JSON.parse(rawBody))
    transaction = ZWechatTransaction.parse(JSON.parse(decryptResource(envelope.resource, merchant.apiV3Key)))
  } catch {
    await recordRejected('WECHAT', clientIp(headers), null, rawBody, '通知内容无法解密或格式错误')
    return fail(400, '通知内容无法解密或格式错误')
  }

  const record = { eventId: envelope.id, raw: rawBody }
  if (envelope.event_type !== 'TRANSACTION.SUCCESS' || transaction.trade_state !== 'SUCCESS') {
    await db().$transaction((tx) =>
      recordNotification(tx, 'WECHAT', null, transaction.out_trade_no, record, 'ignored', `${envelope.event_type} ${transaction.trade_state}`),
    )
    return { status: 204 }
  }
  await settlePaid(
    {
      channel: 'WECHAT',
      outTradeNo: transaction.out_trade_no,
      providerTxnId: transaction.transaction_id ?? null,
      amount: transaction.amount.currency && transaction.amount.currency !== 'CNY' ? -1 : transaction.amount.total,
      merchantMatches: transaction.mchid === merchant.mchId && transaction.appid === merchant.appId,
      paidAt: parseTime(transaction.success_time),
    },
    'notify',
    record,
  )
  return { status: 204 }
}

function parseTime(value: string | undefined): Date | undefined {
  const date = value ? new Date(value) : null
  return date && !Number.isNaN(date.getTime()) ? date : undefined
}

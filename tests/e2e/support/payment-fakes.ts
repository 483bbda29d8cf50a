// The WeChat Pay and Alipay fakes of the e2e site (docs/PROTOCOLS.md §9-§10). The e2e server starts
// them; specs switch payments on with the fakes' merchant settings and play the buyer: pay a
// NATIVE QR (the phone that scans it), or press 确认付款 on the fake Alipay cashier.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { makeAlipayKeys, startFakeAlipay } from '../../fakes/alipay'
import { makeWechatPayKeys, startFakeWechatPay, type ControlNotification } from '../../fakes/wechat-pay'
import { asAdmin } from './session'

const FAKES_FILE = path.resolve(import.meta.dirname, '../../../.tmp/e2e-payment-fakes.json')

type Written = { wechat: string; alipay: string; settings: Record<string, string | boolean> }

export async function startPaymentFakes(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const wechatKeys = makeWechatPayKeys()
  const alipayKeys = makeAlipayKeys()
  const wechat = await startFakeWechatPay({ keys: wechatKeys })
  const alipay = await startFakeAlipay({ keys: alipayKeys })
  const settings = {
    WXPAY_APP_ID: wechatKeys.appId,
    WXPAY_MCH_ID: wechatKeys.mchId,
    WXPAY_MCH_SERIAL_NO: wechatKeys.mchSerialNo,
    WXPAY_MCH_PRIVATE_KEY: wechatKeys.mchPrivateKeyPem,
    WXPAY_API_V3_KEY: wechatKeys.apiV3Key,
    WXPAY_PUBLIC_KEY_ID: wechatKeys.publicKeyId,
    WXPAY_PUBLIC_KEY: wechatKeys.publicKeyPem,
    WXPAY_ENABLED: true,
    ALIPAY_APP_ID: alipayKeys.appId,
    ALIPAY_PRIVATE_KEY: alipayKeys.appPrivateKeyPem,
    ALIPAY_PUBLIC_KEY: alipayKeys.alipayPublicKeyPem,
    ALIPAY_SELLER_ID: alipayKeys.sellerId,
    ALIPAY_ENABLED: true,
  }
  await mkdir(path.dirname(FAKES_FILE), { recursive: true })
  await writeFile(FAKES_FILE, JSON.stringify({ wechat: wechat.url, alipay: alipay.url, settings } satisfies Written))
  return {
    env: { WXPAY_API_BASE: wechat.url, ALIPAY_GATEWAY: alipay.gateway },
    async close() {
      await Promise.all([wechat.close(), alipay.close()])
      await rm(FAKES_FILE, { force: true })
    },
  }
}

const written = async (): Promise<Written> => JSON.parse(await readFile(FAKES_FILE, 'utf8')) as Written

/**
 * Switches WeChat Pay and Alipay on with the fakes' merchant settings. The WeChat AppID of sign-in
 * is set to the payment one too (JSAPI needs the user's openid under the paying AppID).
 */
export async function enablePayments(request: APIRequestContext): Promise<void> {
  const { settings } = await written()
  const headers = await asAdmin(request)
  for (const [name, value] of Object.entries({ ...settings, WX_APP_ID: settings.WXPAY_APP_ID })) {
    const res = await request.patch(`/api/site-config/${name}`, { headers, data: { value } })
    if (!res.ok()) throw new Error(`setting ${name} failed: ${res.status()} ${await res.text()}`)
  }
}

/**
 * The buyer pays a WeChat order (scans the NATIVE QR, confirms in WeChat): WeChat notifies the site,
 * unless `notify` is false (a lost notification). `reopen` pays an order closed meanwhile.
 */
export async function payWechatOrder(outTradeNo: string, options: { notify?: boolean; reopen?: boolean } = {}): Promise<void> {
  const res = await fetch(`${(await written()).wechat}/__control/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ out_trade_no: outTradeNo, ...options }),
  })
  if (!res.ok) throw new Error(`fake WeChat Pay refused to pay ${outTradeNo}: ${res.status}`)
}

/** How fake WeChat Pay answers refunds from now on (tests/fakes/wechat-pay.ts, settings.refundAnswer). */
export async function setWechatRefundAnswer(answer: 'made' | 'processing' | 'lost'): Promise<void> {
  const res = await fetch(`${(await written()).wechat}/__control/refund-answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answer }),
  })
  if (!res.ok) throw new Error(`fake WeChat Pay refused the refund answer ${answer}: ${res.status}`)
}

/** The buyer pays an Alipay trade outside the page (scans the precreate QR); `notify: false` loses the notification. */
export async function payAlipayOrder(outTradeNo: string, options: { notify?: boolean } = {}): Promise<void> {
  const res = await fetch(`${(await written()).alipay}/__control/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ out_trade_no: outTradeNo, notify: String(options.notify !== false) }).toString(),
  })
  if (!res.ok) throw new Error(`fake Alipay refused to pay ${outTradeNo}: ${res.status}`)
}

export type WechatNotification = { headers: Record<string, string>; body: string }

/** The notification the WeChat Pay fake would send for an order, signed and encrypted by the fake (alterations: ControlNotification). */
export async function wechatNotification(outTradeNo: string, alter: Omit<ControlNotification, 'out_trade_no'> = {}): Promise<WechatNotification> {
  const res = await fetch(`${(await written()).wechat}/__control/notification`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ out_trade_no: outTradeNo, ...alter }),
  })
  if (!res.ok) throw new Error(`fake WeChat Pay made no notification for ${outTradeNo}: ${res.status}`)
  return (await res.json()) as WechatNotification
}

/** The form body the Alipay fake would POST for a trade, signed by the fake after replacing the given fields. */
export async function alipayNotification(
  outTradeNo: string,
  alter: Partial<Record<'total_amount' | 'app_id' | 'seller_id' | 'trade_status', string>> = {},
): Promise<string> {
  const res = await fetch(`${(await written()).alipay}/__control/notification`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ out_trade_no: outTradeNo, ...alter }).toString(),
  })
  if (!res.ok) throw new Error(`fake Alipay made no notification for ${outTradeNo}: ${res.status}`)
  return ((await res.json()) as { body: string }).body
}

/** What the provider's fake says about a trade now (WeChat trade_state or Alipay trade_status), or null when it never saw it. */
export async function providerState(channel: 'WECHAT' | 'ALIPAY', outTradeNo: string): Promise<string | null> {
  const fakes = await written()
  const url =
    channel === 'WECHAT'
      ? `${fakes.wechat}/__control/order?out_trade_no=${encodeURIComponent(outTradeNo)}`
      : `${fakes.alipay}/__control/trade?out_trade_no=${encodeURIComponent(outTradeNo)}`
  const res = await fetch(url)
  if (res.status === 404) return null
  const data = (await res.json()) as { state?: string; status?: string }
  return data.state ?? data.status ?? null
}

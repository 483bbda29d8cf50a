import { ApiError } from '@/lib/api-client/request'
import type { AlipayMethod, PayChannel, WechatTradeType } from '@/lib/api-client/resources/orders'

/** Where the page runs, which decides how a payment starts (docs/PRODUCT.md §3). */
export type PayEnv = 'wechat' | 'mobile' | 'desktop'

/** Inside WeChat's browser (MicroMessenger), a phone browser, or a desktop one. */
export function detectPayEnv(userAgent: string): PayEnv {
  if (/MicroMessenger/i.test(userAgent)) return 'wechat'
  if (/Android|iPhone|iPad|iPod|Mobile|HarmonyOS/i.test(userAgent)) return 'mobile'
  return 'desktop'
}

/** On a desktop Alipay can show a QR code in the dialog or send the page to its cashier. */
export type AlipayDesktopMode = 'qr' | 'page'

/**
 * The order's payment fields for a channel here: WeChat JSAPI inside WeChat, NATIVE (QR) on a
 * desktop, MWEB (H5) in a phone browser; Alipay wap on a phone, QR or page pay on a desktop.
 */
export function paymentFields(
  channel: PayChannel,
  env: PayEnv,
  alipayDesktop: AlipayDesktopMode = 'qr',
): { tradeType?: WechatTradeType; alipayMethod?: AlipayMethod } {
  if (channel === 'WECHAT') return { tradeType: env === 'wechat' ? 'JSAPI' : env === 'mobile' ? 'MWEB' : 'NATIVE' }
  if (channel === 'ALIPAY') return { alipayMethod: env === 'desktop' ? alipayDesktop : 'wap' }
  return {}
}

/** A fresh Idempotency-Key for one press of a pay button. */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/**
 * Whether a failed press may have made its order after all, so the next press must carry the
 * same Idempotency-Key: no answer came (the network), the same key was still being served
 * (409), or a proxy in front gave up waiting (502, 504). Any other answer is the order's
 * outcome (refused, or made and failed at the provider, which the same key would replay
 * for good): the next press is a new order.
 */
export function mayHaveOrdered(error: unknown): boolean {
  return error instanceof ApiError && [0, 409, 502, 504].includes(error.status)
}

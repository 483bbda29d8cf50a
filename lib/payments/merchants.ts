import 'server-only'
import type { KeyObject } from 'node:crypto'
import { privateKeyPem, readPrivateKey, readPublicKey } from '@/lib/crypto/rsa-keys'
import { env } from '@/lib/env'
import { missingPaymentSettings, paymentEnabled } from '@/lib/site-config/payment-readiness'
import { getAllConfigValues } from '@/lib/site-config/store'

export type WechatMerchant = {
  appId: string
  mchId: string
  serialNo: string
  privateKeyPem: string
  apiV3Key: string
  /** 微信支付公钥 mode: its id (the notifications' Wechatpay-Serial) and key; null = platform certificates. */
  publicKey: { id: string; key: KeyObject } | null
  apiBase: string
  notifyUrl: string
}

export type AlipayMerchant = {
  appId: string
  privateKeyPem: string
  alipayPublicKeyPem: string
  sellerId: string | null
  gateway: string
  notifyUrl: string
}

const text = (values: ReadonlyMap<string, unknown>, name: string) => String(values.get(name) ?? '').trim()

/** Parsing keys costs more than the rest of a notification's checks: the merchants are kept until a setting changes. */
const built = new Map<string, unknown>()
function memo<T>(key: string, make: () => T): T {
  if (!built.has(key)) {
    if (built.size > 8) built.clear()
    built.set(key, make())
  }
  return built.get(key) as T
}

/** Where the providers send notifications: PUBLIC_URL + the notify paths (http works for trials; WeChat wants https). */
export function siteUrl(): string {
  const e = env()
  return (e.PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, '')
}

/**
 * Who may be used for what: new orders need the provider switched on (with complete settings);
 * settling orders already made (notifications, queries, closing, refunds) needs only complete
 * settings, so turning a provider off never strands money already on its way.
 */
export type MerchantUse = 'new-orders' | 'settle'

const usable = (provider: 'wechat' | 'alipay', values: ReadonlyMap<string, unknown>, use: MerchantUse) =>
  use === 'new-orders' ? paymentEnabled(provider, values) : missingPaymentSettings(provider, values).length === 0

/** The WeChat Pay merchant, or null when it cannot be used that way. */
export async function wechatMerchant(use: MerchantUse): Promise<WechatMerchant | null> {
  const values = await getAllConfigValues()
  if (!usable('wechat', values, use)) return null
  const publicKeyId = text(values, 'WXPAY_PUBLIC_KEY_ID')
  const names = ['WXPAY_APP_ID', 'WXPAY_MCH_ID', 'WXPAY_MCH_SERIAL_NO', 'WXPAY_MCH_PRIVATE_KEY', 'WXPAY_API_V3_KEY', 'WXPAY_PUBLIC_KEY_ID', 'WXPAY_PUBLIC_KEY']
  return memo(['wechat', env().WXPAY_API_BASE, siteUrl(), ...names.map((n) => text(values, n))].join('\u0000'), () => ({
    appId: text(values, 'WXPAY_APP_ID'),
    mchId: text(values, 'WXPAY_MCH_ID'),
    serialNo: text(values, 'WXPAY_MCH_SERIAL_NO').toUpperCase(),
    privateKeyPem: privateKeyPem(text(values, 'WXPAY_MCH_PRIVATE_KEY')),
    apiV3Key: text(values, 'WXPAY_API_V3_KEY'),
    publicKey: publicKeyId ? { id: publicKeyId, key: readPublicKey(text(values, 'WXPAY_PUBLIC_KEY')) } : null,
    apiBase: env().WXPAY_API_BASE.replace(/\/+$/, ''),
    notifyUrl: `${siteUrl()}/api/pay/wechat/notify`,
  }))
}

export async function alipayMerchant(use: MerchantUse): Promise<AlipayMerchant | null> {
  const values = await getAllConfigValues()
  if (!usable('alipay', values, use)) return null
  const names = ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY', 'ALIPAY_SELLER_ID']
  return memo(['alipay', env().ALIPAY_GATEWAY, siteUrl(), ...names.map((n) => text(values, n))].join('\u0000'), () => ({
    appId: text(values, 'ALIPAY_APP_ID'),
    // alipay-sdk reads PKCS#1 by default; whatever the operator pasted is converted.
    privateKeyPem: readPrivateKey(text(values, 'ALIPAY_PRIVATE_KEY')).export({ format: 'pem', type: 'pkcs1' }).toString(),
    alipayPublicKeyPem: readPublicKey(text(values, 'ALIPAY_PUBLIC_KEY')).export({ format: 'pem', type: 'spki' }).toString(),
    sellerId: text(values, 'ALIPAY_SELLER_ID') || null,
    gateway: env().ALIPAY_GATEWAY,
    notifyUrl: `${siteUrl()}/api/pay/alipay/notify`,
  }))
}

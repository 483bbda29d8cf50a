import 'server-only'
import { createPublicKey, type KeyObject } from 'node:crypto'
import WxPay from 'wechatpay-node-v3'
import { guardedFetch } from '@/lib/net/guarded-fetch'
import type { WechatMerchant } from '../merchants'
import { signedMessageOf, verifyWechatSignature } from './notification-crypto'

/** wechatpay-node-v3's answer: it never throws on HTTP errors. */
export type WxAnswer = { status: number; data?: Record<string, unknown>; error?: string }

const OFFICIAL_BASE = 'https://api.mch.weixin.qq.com'
const CERTIFICATES_PATH = '/v3/certificates'
const TIMEOUT_MS = 10_000

type Http = {
  post(url: string, params: unknown, headers: Record<string, string>): Promise<WxAnswer>
  get(url: string, headers: Record<string, string>): Promise<WxAnswer>
}

/**
 * wechatpay-node-v3 signs our requests and builds the JSAPI bridge parameters; its HTTP
 * layer is replaced so calls go to WXPAY_API_BASE through the guarded fetch, and so every
 * answer we act on is checked against WeChat Pay's signature (the certificates download
 * excepted: its content is encrypted with the APIv3 key instead).
 */
export function wechatClient(merchant: WechatMerchant): WxPay {
  const pay = new WxPay({
    appid: merchant.appId,
    mchid: merchant.mchId,
    serial_no: merchant.serialNo,
    // Only read to derive the serial, which we give; the library refuses an empty value.
    publicKey: Buffer.from('unused'),
    privateKey: Buffer.from(merchant.privateKeyPem),
    key: merchant.apiV3Key,
  })
  pay.createHttp(signedHttp(merchant) as never)
  return pay
}

function signedHttp(merchant: WechatMerchant): Http {
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string): Promise<WxAnswer> => {
    const target = url.startsWith(OFFICIAL_BASE) ? merchant.apiBase + url.slice(OFFICIAL_BASE.length) : url
    let res: Response
    try {
      res = await guardedFetch(target, { method, headers: { ...headers, Accept: 'application/json' }, body, signal: AbortSignal.timeout(TIMEOUT_MS) })
    } catch (error) {
      return { status: 0, error: `无法连接微信支付：${(error as Error).message}` }
    }
    const text = await res.text()
    const isCertificates = new URL(target).pathname === CERTIFICATES_PATH
    if (res.ok && !isCertificates) {
      await ensurePlatformKey(merchant, res.headers.get('wechatpay-serial'))
      const verdict = verifyWechatSignature(signedMessageOf(res.headers, text), (serial) => platformKey(merchant, serial))
      if (!verdict.ok) return { status: 0, error: `微信支付应答验签失败：${verdict.reason}` }
    }
    const data = parse(text)
    return res.ok ? { status: res.status, data } : { status: res.status, data, error: text.slice(0, 500) }
  }
  return {
    post: (url, params, headers) => call('POST', url, headers, JSON.stringify(params)),
    get: (url, headers) => call('GET', url, headers),
  }
}

function parse(text: string): Record<string, unknown> {
  if (!text) return {}
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return { raw: text }
  }
}

/**
 * Platform certificates, for merchants without a 微信支付公钥: downloaded with the APIv3 key
 * and kept for 12 hours. An unknown serial refreshes them at most once a minute, so forged
 * notifications cannot make us fetch on every request.
 */
const certificates = globalThis as unknown as { aiimgWxCerts?: Map<string, { keys: Map<string, KeyObject>; at: number; tried: number }> }
const CERT_TTL_MS = 12 * 3600_000
const CERT_RETRY_MS = 60_000

/** The key a Wechatpay-Serial names: the configured public key, or a cached platform certificate. */
export function platformKey(merchant: WechatMerchant, serial: string): KeyObject | null {
  if (merchant.publicKey) return serial === merchant.publicKey.id ? merchant.publicKey.key : null
  return certificates.aiimgWxCerts?.get(merchant.mchId)?.keys.get(serial) ?? null
}

/** Makes sure the certificate cache can answer for `serial` (certificate mode only). */
export async function ensurePlatformKey(merchant: WechatMerchant, serial: string | null): Promise<void> {
  if (merchant.publicKey) return
  const cache = (certificates.aiimgWxCerts ??= new Map())
  const entry = cache.get(merchant.mchId)
  const now = Date.now()
  const fresh = entry && now - entry.at < CERT_TTL_MS
  if (fresh && (!serial || entry.keys.has(serial))) return
  if (entry && now - entry.tried < CERT_RETRY_MS) return
  cache.set(merchant.mchId, { keys: entry?.keys ?? new Map(), at: entry?.at ?? 0, tried: now })
  const list = (await wechatClient(merchant)
    .get_certificates(merchant.apiV3Key)
    .catch(() => [])) as { serial_no?: string; publicKey?: string }[]
  const keys = new Map<string, KeyObject>()
  for (const item of list) if (item.serial_no && item.publicKey) keys.set(item.serial_no, createPublicKey(item.publicKey))
  if (keys.size) cache.set(merchant.mchId, { keys, at: now, tried: now })
}

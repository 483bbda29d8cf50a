import { createDecipheriv, createVerify, type KeyObject } from 'node:crypto'

/** docs/PROTOCOLS.md §9: a notification more than this far from our clock is refused (replays). */
export const WECHAT_TIMESTAMP_WINDOW_SECONDS = 300

export type WechatSignedMessage = {
  timestamp: string | null
  nonce: string | null
  signature: string | null
  serial: string | null
  body: string
}

export type WechatVerifyResult = { ok: true } | { ok: false; reason: string }

/** The headers WeChat Pay signs a notification or an API answer with. */
export function signedMessageOf(headers: Headers, body: string): WechatSignedMessage {
  return {
    timestamp: headers.get('wechatpay-timestamp'),
    nonce: headers.get('wechatpay-nonce'),
    signature: headers.get('wechatpay-signature'),
    serial: headers.get('wechatpay-serial'),
    body,
  }
}

/**
 * Checks WeChat Pay's RSA-SHA256 signature over `timestamp\nnonce\nbody\n` with the key the
 * serial names (a 微信支付公钥 id or a platform certificate serial), inside the time window.
 * SIGNTEST probes carry a signature that cannot verify and fail like any other bad one.
 */
export function verifyWechatSignature(message: WechatSignedMessage, keyFor: (serial: string) => KeyObject | null, now = Date.now()): WechatVerifyResult {
  const { timestamp, nonce, signature, serial, body } = message
  if (!timestamp || !nonce || !signature || !serial) return { ok: false, reason: '缺少签名头' }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: '时间戳格式错误' }
  if (Math.abs(now / 1000 - Number(timestamp)) > WECHAT_TIMESTAMP_WINDOW_SECONDS) return { ok: false, reason: '时间戳超出 5 分钟' }
  const key = keyFor(serial)
  if (!key) return { ok: false, reason: `未知的证书序列号 ${serial.slice(0, 64)}` }
  const verifier = createVerify('RSA-SHA256')
  verifier.update(`${timestamp}\n${nonce}\n${body}\n`)
  let valid = false
  try {
    valid = verifier.verify(key, signature, 'base64')
  } catch {
    valid = false
  }
  return valid ? { ok: true } : { ok: false, reason: '签名错误' }
}

export type EncryptedResource = { algorithm: string; ciphertext: string; associated_data?: string; nonce: string }

/**
 * AEAD_AES_256_GCM with the APIv3 key: the last 16 bytes of the ciphertext are the tag, and
 * final() throws when it does not match (a tampered or truncated resource).
 */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unsupported algorithm ${resource.algorithm}`)
  const key = Buffer.from(apiV3Key, 'utf8')
  if (key.length !== 32) throw new Error('APIv3 key must be 32 bytes')
  const data = Buffer.from(resource.ciphertext, 'base64')
  if (data.length < 17) throw new Error('ciphertext too short')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(resource.nonce, 'utf8'))
  decipher.setAuthTag(data.subarray(data.length - 16))
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8')
}

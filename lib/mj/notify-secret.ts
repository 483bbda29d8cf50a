import { timingSafeEqual } from 'node:crypto'
import { createKeyedHash } from '@/lib/crypto/secret-box'
import { env } from '@/lib/env'

const NOTIFY_PATH = '/api/mj/notify/'
const keyedHash = createKeyedHash('mj-notify-hook')

/** The path secret of a model's notify hook: an HMAC of its id under a key derived from AUTH_SECRET. */
export function mjNotifySecret(modelId: string): string {
  return keyedHash(modelId).slice(0, 40)
}

export function isMjNotifySecret(modelId: string, secret: string): boolean {
  const expected = Buffer.from(mjNotifySecret(modelId))
  const given = Buffer.from(secret)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Where the proxy may POST its progress: the model's `options.notifyBaseUrl` (an address
 * the proxy can reach, e.g. inside docker-compose) or PUBLIC_URL. Neither: no hook, the
 * worker only polls.
 */
export function mjNotifyHook(modelId: string, options: unknown): string | null {
  const configured = (options as { notifyBaseUrl?: unknown } | null)?.notifyBaseUrl
  const base = typeof configured === 'string' && /^https?:\/\//.test(configured) ? configured : env().PUBLIC_URL
  return base ? `${base.replace(/\/+$/, '')}${NOTIFY_PATH}${mjNotifySecret(modelId)}` : null
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { env } from '@/lib/env'

/**
 * Secret settings (payment keys, app secrets) are stored encrypted with AES-256-GCM
 * under a key derived from AUTH_SECRET, so a database dump alone does not leak them.
 * Rotating AUTH_SECRET makes stored secrets unreadable: they must be entered again.
 */
const PREFIX = 'enc:v1:'

function key(): Buffer {
  return Buffer.from(hkdfSync('sha256', env().AUTH_SECRET, 'aiimg', 'site-config secret values', 32))
}

export function sealSecret(plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key(), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

/** Returns null when the value cannot be decrypted (for example after a key rotation). */
export function openSecret(sealed: string): string | null {
  if (!sealed.startsWith(PREFIX)) return null
  try {
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64')
    const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

/** What the console shows of a secret: its last four characters at most. */
export function maskSecret(value: string): string {
  if (!value) return ''
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••••'
}

export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('••••')
}

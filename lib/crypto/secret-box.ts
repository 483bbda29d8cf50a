import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { env } from '@/lib/env'

/**
 * Encryption at rest for values the server must read back (secret settings, card
 * keys): AES-256-GCM under a key derived from AUTH_SECRET for one purpose, so a
 * database dump alone reveals nothing. Rotating AUTH_SECRET makes old values unreadable.
 */
const PREFIX = 'enc:v1:'

function derive(purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', env().AUTH_SECRET, 'aiimg', purpose, 32))
}

export function createSecretBox(purpose: string) {
  let key: Buffer | undefined
  const keyFor = () => (key ??= derive(purpose))
  return {
    seal(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', keyFor(), iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    /** Null when the value cannot be decrypted (for example after a key rotation). */
    open(sealed: string): string | null {
      if (!sealed.startsWith(PREFIX)) return null
      try {
        const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64')
        const decipher = createDecipheriv('aes-256-gcm', keyFor(), raw.subarray(0, 12))
        decipher.setAuthTag(raw.subarray(12, 28))
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    },
  }
}

/** A keyed hash for looking values up without storing them (HMAC-SHA256, hex). */
export function createKeyedHash(purpose: string) {
  let key: Buffer | undefined
  return (value: string) =>
    createHmac('sha256', (key ??= derive(purpose)))
      .update(value, 'utf8')
      .digest('hex')
}

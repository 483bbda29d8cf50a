import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { env } from '@/lib/env'

/**
 * Where a desktop QR login was started (address and browser), shown on the phone before
 * the user confirms. It travels sealed inside the QR link (AES-256-GCM, bound to the
 * ticket id as associated data): the phone cannot alter it and it cannot be moved to
 * another ticket, and the database needs no column for it.
 */
export type DesktopDetails = { ip: string; browser: string }

let key: Buffer | undefined
const keyFor = () => (key ??= Buffer.from(hkdfSync('sha256', env().AUTH_SECRET, 'aiimg', 'wechat-ticket-desktop', 32)))

export function sealDesktopDetails(ticketId: string, details: DesktopDetails): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyFor(), iv)
  cipher.setAAD(Buffer.from(ticketId, 'utf8'))
  const body = Buffer.concat([cipher.update(JSON.stringify([details.ip, details.browser]), 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

/** The details sealed for this ticket, or null for anything else (altered, another ticket's, not ours). */
export function openDesktopDetails(ticketId: string, sealed: string | null | undefined): DesktopDetails | null {
  if (!sealed || sealed.length > 400 || !/^[A-Za-z0-9_-]+$/.test(sealed)) return null
  try {
    const raw = Buffer.from(sealed, 'base64url')
    if (raw.length <= 28) return null
    const decipher = createDecipheriv('aes-256-gcm', keyFor(), raw.subarray(0, 12))
    decipher.setAAD(Buffer.from(ticketId, 'utf8'))
    decipher.setAuthTag(raw.subarray(12, 28))
    const [ip, browser] = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as unknown[]
    return typeof ip === 'string' && typeof browser === 'string' ? { ip, browser } : null
  } catch {
    return null
  }
}

import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'

/**
 * Merchant consoles hand keys out as PEM files (PKCS#1 "RSA PRIVATE KEY", PKCS#8 "PRIVATE KEY",
 * SPKI "PUBLIC KEY") or as the bare base64 inside them (Alipay's key tool). These turn any of
 * those into a KeyObject, or throw when the text is not a key of that kind.
 */
export function readPrivateKey(text: string): KeyObject {
  const trimmed = text.trim()
  if (trimmed.includes('-----BEGIN')) return createPrivateKey(trimmed)
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64')
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' })
  }
}

export function readPublicKey(text: string): KeyObject {
  const trimmed = text.trim()
  if (trimmed.includes('-----BEGIN')) return createPublicKey(trimmed)
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64')
  try {
    return createPublicKey({ key: der, format: 'der', type: 'spki' })
  } catch {
    return createPublicKey({ key: der, format: 'der', type: 'pkcs1' })
  }
}

export const privateKeyPem = (text: string): string => readPrivateKey(text).export({ format: 'pem', type: 'pkcs8' }).toString()
export const publicKeyPem = (text: string): string => readPublicKey(text).export({ format: 'pem', type: 'spki' }).toString()

/** Whether the text is a usable key (the console refuses anything else when it is saved). */
export function isKeyText(text: string, kind: 'private' | 'public'): boolean {
  if (text.trim() === '') return true
  try {
    const key = kind === 'private' ? readPrivateKey(text) : readPublicKey(text)
    return key.asymmetricKeyType === 'rsa'
  } catch {
    return false
  }
}

import { createSecretBox } from '@/lib/crypto/secret-box'

/** Secret settings (payment keys, app secrets) are stored encrypted. */
const box = createSecretBox('site-config secret values')

export const sealSecret = box.seal
export const openSecret = box.open

/** What the console shows of a secret: its last four characters at most. */
export function maskSecret(value: string): string {
  if (!value) return ''
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••••'
}

export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('••••')
}

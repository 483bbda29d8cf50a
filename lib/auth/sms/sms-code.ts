import { randomInt, timingSafeEqual } from 'node:crypto'
import { createKeyedHash } from '@/lib/crypto/secret-box'
import type { SmsPurpose } from './schemas'

/** SMS code rules (docs/PROTOCOLS.md §8.2). */
export const SMS_CODE_TTL_SECONDS = 5 * 60
export const SMS_MAX_WRONG_TRIES = 5

const keyedHash = createKeyedHash('sms-code')

/** Six digits from the CSPRNG. */
export function newSmsCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0')
}

/** Codes are stored only as an HMAC bound to the phone and the purpose. */
export function hashSmsCode(mobile: string, purpose: SmsPurpose, code: string): string {
  return keyedHash(`${purpose}:${mobile}:${code}`)
}

export function isSameHash(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

import { createKeyedHash, createSecretBox } from '@/lib/crypto/secret-box'

/** A request may name keys up to this long; longer is a bad request, not a failed card. */
export const MAX_KEY_LENGTH = 128
export const MIN_KEY_LENGTH = 4

const box = createSecretBox('card keys')
const keyedHash = createKeyedHash('card key lookup')

/** Keys are compared exactly as typed, after trimming the ends. */
export const normalizeKey = (key: string) => key.trim()

/**
 * A spreadsheet runs a cell starting with one of these as a formula. The CSV export hands
 * keys out exactly, so no key may start with one (such keys fail the check).
 */
export const startsLikeFormula = (text: string) => /^[=+\-@]/.test(text)

/** Why a key cannot be a card, or null when it can (4-128 visible characters, no spaces, no formula start). */
export function malformedReason(key: string): string | null {
  const length = [...key].length
  if (length < MIN_KEY_LENGTH || length > MAX_KEY_LENGTH) return `格式不正确：卡密需为 ${MIN_KEY_LENGTH}-${MAX_KEY_LENGTH} 个字符`
  if (/[\s\p{Cc}\p{Cf}]/u.test(key)) return '格式不正确：卡密不能包含空格或不可见字符'
  if (startsLikeFormula(key)) return '格式不正确：卡密不能以 = + - @ 开头'
  return null
}

/**
 * docs/PRODUCT.md §5: first 3 characters, six stars, last 3. Keys of 6 characters or fewer
 * would be shown whole that way, so they show only their first and last character.
 */
export function maskKey(key: string): string {
  const chars = [...key]
  const keep = chars.length > 6 ? 3 : 1
  return chars.slice(0, keep).join('') + '******' + chars.slice(-keep).join('')
}

export const hashKey = (key: string) => keyedHash(normalizeKey(key))
export const sealKey = (key: string) => box.seal(key)
export const openKey = (sealed: string) => box.open(sealed)

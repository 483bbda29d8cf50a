import { randomInt } from 'node:crypto'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A username for an account created by WeChat or SMS sign-in (`wx_k3v9q0s2ma`), valid
 * for ZUsernameSchema. Ten random characters make a collision practically impossible;
 * the unique index would still refuse one.
 */
export function generatedUsername(prefix: 'wx' | 'u'): string {
  let tail = ''
  for (let i = 0; i < 10; i++) tail += ALPHABET[randomInt(ALPHABET.length)]
  return `${prefix}_${tail}`
}

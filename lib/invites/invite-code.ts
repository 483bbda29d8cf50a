import 'server-only'
import { randomInt } from 'node:crypto'
import { db } from '@/lib/db'
import { INVITE_ALPHABET, INVITE_CODE_LENGTH } from './schemas'

export function randomInviteCode(): string {
  return Array.from({ length: INVITE_CODE_LENGTH }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('')
}

/**
 * The user's invite code, made on first use: a conditional update sets it only while it is
 * still empty (two first views at once agree on one code), retried on the rare taken code.
 */
export async function ensureInviteCode(userId: string): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const current = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { inviteCode: true } })
    if (current.inviteCode) return current.inviteCode
    try {
      await db().user.updateMany({ where: { id: userId, inviteCode: null }, data: { inviteCode: randomInviteCode() } })
    } catch (error) {
      if ((error as { code?: string }).code !== 'P2002') throw error
    }
  }
  throw new Error('Could not make an invite code')
}

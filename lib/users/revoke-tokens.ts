import 'server-only'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import { db, type Tx } from '@/lib/db'

/**
 * Invalidates every token the user holds (logout everywhere). Returns the new version.
 * Inside a caller's transaction, the caller forgets the cached session after its commit.
 */
export async function revokeTokens(userId: string, tx: Tx = db()): Promise<number> {
  const user = await tx.user.update({ where: { id: userId }, data: { tokenVersion: { increment: 1 } }, select: { tokenVersion: true } })
  if (tx === db()) forgetSessionUser(userId)
  return user.tokenVersion
}

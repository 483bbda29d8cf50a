import 'server-only'
import { db, type Tx } from '@/lib/db'

/** Invalidates every token the user holds (logout everywhere). Returns the new version. */
export async function revokeTokens(userId: string, tx: Tx = db()): Promise<number> {
  const user = await tx.user.update({ where: { id: userId }, data: { tokenVersion: { increment: 1 } }, select: { tokenVersion: true } })
  return user.tokenVersion
}

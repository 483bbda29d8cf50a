import 'server-only'
import type { Tx } from '@/lib/db'
import { conflict } from '@/lib/http/app-error'

/**
 * Refuses a change that would leave the site without an active ADMIN. The admin rows
 * are locked first, so two admins demoting each other at the same moment cannot both
 * succeed.
 */
export async function assertNotLastAdmin(tx: Tx, targetId: string, what: string): Promise<void> {
  const admins = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "User" WHERE "role" = 'ADMIN' AND "bannedAt" IS NULL ORDER BY "id" FOR UPDATE`
  const isTargetActiveAdmin = admins.some((a) => a.id === targetId)
  if (isTargetActiveAdmin && admins.length <= 1) throw conflict(`不能${what}最后一个管理员`)
}

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

/**
 * Locks the user a console edit or delete acts on, so the role it checks is the committed
 * one and not one a concurrent promotion is about to replace. The active ADMIN rows are
 * locked with it, in id order as assertNotLastAdmin takes them: locking the target alone
 * first would let two admins acting on each other deadlock in that guard.
 */
export async function lockTargetAndAdmins(tx: Tx, targetId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${targetId} OR ("role" = 'ADMIN' AND "bannedAt" IS NULL) ORDER BY "id" FOR UPDATE`
}

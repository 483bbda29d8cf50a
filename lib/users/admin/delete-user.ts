import 'server-only'
import { db, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { canManageUser } from '@/lib/auth/permissions'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, forbidden, notFound } from '@/lib/http/app-error'
import { afterWriting } from '@/lib/signals/answer-cache'
import { assertNotLastAdmin, lockTargetAndAdmins } from './last-admin-guard'

export async function deleteUserByAdmin(actor: SessionUser, ip: string, id: string): Promise<{ id: string }> {
  if (id === actor.id) throw conflict('不能删除自己')
  const deleting = db().$transaction(async (tx) => {
    await lockTargetAndAdmins(tx, id)
    const target = await tx.user.findUnique({
      where: { id },
      select: { id: true, username: true, name: true, role: true, mobile: true, balance: true, points: true },
    })
    if (!target) throw notFound('用户不存在')
    if (!canManageUser(actor.role, target.role)) throw forbidden('没有权限删除该用户')
    if (target.role === 'ADMIN') await assertNotLastAdmin(tx, id, '删除')
    // Money history is kept forever; such accounts are banned instead of deleted.
    const history = await tx.ledgerEntry.count({ where: { userId: id } })
    if (history > 0) throw conflict('该用户有积分或余额流水，不能删除；可以禁用该账号')
    await forgetWallMarks(tx, id)
    await tx.user.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'user.delete', targetType: 'User', targetId: id, before: target })
  })
  await afterWriting('wall', deleting)
  forgetSessionUser(id)
  return { id }
}

/**
 * The user's likes, favourites and reports of wall works (kept by user id, not a foreign key)
 * go with the account, and the works' like and report counts drop with them.
 */
async function forgetWallMarks(tx: Tx, userId: string): Promise<void> {
  // Rows first, then the counts by the rows really removed: the order toggleLike locks in.
  await tx.$executeRaw`
    WITH gone AS (DELETE FROM "WallLike" WHERE "userId" = ${userId} RETURNING "workId")
    UPDATE "WallWork" w SET "likes" = greatest(w."likes" - g."n", 0)
    FROM (SELECT "workId", count(*)::int AS "n" FROM gone GROUP BY "workId") g WHERE w."id" = g."workId"`
  await tx.$executeRaw`
    WITH gone AS (DELETE FROM "WallReport" WHERE "userId" = ${userId} RETURNING "workId")
    UPDATE "WallWork" w SET "reports" = greatest(w."reports" - g."n", 0)
    FROM (SELECT "workId", count(*)::int AS "n" FROM gone GROUP BY "workId") g WHERE w."id" = g."workId"`
  await tx.wallFavorite.deleteMany({ where: { userId } })
}

import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { canManageUser } from '@/lib/auth/permissions'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, forbidden, notFound } from '@/lib/http/app-error'
import { assertNotLastAdmin, lockTargetAndAdmins } from './last-admin-guard'

export async function deleteUserByAdmin(actor: SessionUser, ip: string, id: string): Promise<{ id: string }> {
  if (id === actor.id) throw conflict('不能删除自己')
  await db().$transaction(async (tx) => {
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
    await tx.user.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'user.delete', targetType: 'User', targetId: id, before: target })
  })
  forgetSessionUser(id)
  return { id }
}

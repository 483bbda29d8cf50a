import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { hashPassword } from '@/lib/auth/password'
import { assignableRoles, canManageUser } from '@/lib/auth/permissions'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, conflict, forbidden, notFound } from '@/lib/http/app-error'
import { isTooCommon } from '../common-passwords'
import { ADMIN_USER_SELECT, toAdminUserRow, type AdminUserRow } from '../user-views'
import type { TAdminUserUpdate } from '../schemas'
import { assertNotLastAdmin, lockTargetAndAdmins } from './last-admin-guard'

/**
 * Edits a user's name, role, mobile, ban or password. A role change, ban or password
 * reset signs the user out everywhere. Balances and points are not editable here: they
 * move only through the ledger.
 */
export async function updateUserByAdmin(actor: SessionUser, ip: string, id: string, input: TAdminUserUpdate): Promise<AdminUserRow> {
  if (input.password) await refuseBeforeHashing(actor, id, input.password)
  const passwordHash = input.password ? await hashPassword(input.password) : undefined
  try {
    const updated = await db().$transaction(async (tx) => {
      await lockTargetAndAdmins(tx, id)
      const target = await tx.user.findUnique({ where: { id }, select: { ...ADMIN_USER_SELECT } })
      if (!target) throw notFound('用户不存在')
      if (!canManageUser(actor.role, target.role)) throw forbidden('没有权限修改该用户')
      if (input.password && isTooCommon(input.password, target.username)) throw badRequest('密码太常见，请换一个更难猜的密码')
      const isRoleChange = input.role !== undefined && input.role !== target.role
      if (isRoleChange && !assignableRoles(actor.role).includes(input.role!)) throw forbidden('没有权限设置该角色')
      if (isRoleChange && target.role === 'ADMIN') await assertNotLastAdmin(tx, id, '降级')
      if (input.banned === true && !target.bannedAt) {
        if (id === actor.id) throw conflict('不能禁用自己')
        await assertNotLastAdmin(tx, id, '禁用')
      }

      const signsOut = isRoleChange || input.banned === true || passwordHash !== undefined
      const data: Prisma.UserUpdateInput = {
        name: input.name,
        role: input.role,
        mobile: input.mobile,
        passwordHash,
        ...(input.banned === undefined ? {} : { bannedAt: input.banned ? (target.bannedAt ?? new Date()) : null }),
        ...(signsOut ? { tokenVersion: { increment: 1 } } : {}),
      }
      const row = await tx.user.update({ where: { id }, data, select: ADMIN_USER_SELECT })
      const view = (u: typeof row) => ({ name: u.name, role: u.role, mobile: u.mobile, banned: Boolean(u.bannedAt) })
      await recordAudit(tx, actor, ip, {
        action: 'user.update',
        targetType: 'User',
        targetId: id,
        before: view(target),
        after: { ...view(row), ...(passwordHash ? { passwordReset: true } : {}) },
      })
      return toAdminUserRow(row)
    })
    forgetSessionUser(id)
    return updated
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw conflict('手机号已被其他用户绑定')
    throw error
  }
}

/**
 * What would refuse a password reset, asked before the slow hash (the hash slots are shared
 * with every sign-in): a made-up id or a user above the caller must not cost one. The
 * transaction asks again under its lock.
 */
async function refuseBeforeHashing(actor: SessionUser, id: string, password: string): Promise<void> {
  const target = await db().user.findUnique({ where: { id }, select: { role: true, username: true } })
  if (!target) throw notFound('用户不存在')
  if (!canManageUser(actor.role, target.role)) throw forbidden('没有权限修改该用户')
  if (isTooCommon(password, target.username)) throw badRequest('密码太常见，请换一个更难猜的密码')
}

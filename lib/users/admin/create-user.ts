import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { hashPassword } from '@/lib/auth/password'
import { assignableRoles } from '@/lib/auth/permissions'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, conflict, forbidden } from '@/lib/http/app-error'
import { isTooCommon } from '../common-passwords'
import { ADMIN_USER_SELECT, toAdminUserRow, type AdminUserRow } from '../user-views'
import type { TAdminUserCreate } from '../schemas'

export async function createUserByAdmin(actor: SessionUser, ip: string, input: TAdminUserCreate): Promise<AdminUserRow> {
  if (!assignableRoles(actor.role).includes(input.role)) throw forbidden('没有权限创建该角色的用户')
  if (isTooCommon(input.password, input.username)) throw badRequest('密码太常见，请换一个更难猜的密码')
  // Asked before the slow hash too (the insert still decides, by its unique keys).
  const taken = await db().user.findFirst({
    where: { OR: [{ username: input.username }, ...(input.mobile ? [{ mobile: input.mobile }] : [])] },
    select: { id: true },
  })
  if (taken) throw conflict('用户名或手机号已被占用')
  const passwordHash = await hashPassword(input.password)
  try {
    return await db().$transaction(async (tx) => {
      const row = await tx.user.create({
        data: { username: input.username, name: input.name, role: input.role, mobile: input.mobile ?? null, passwordHash },
        select: ADMIN_USER_SELECT,
      })
      await recordAudit(tx, actor, ip, {
        action: 'user.create',
        targetType: 'User',
        targetId: row.id,
        after: { username: row.username, name: row.name, role: row.role, mobile: row.mobile },
      })
      return toAdminUserRow(row)
    })
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw conflict('用户名或手机号已被占用')
    throw error
  }
}

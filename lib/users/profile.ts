import { db } from '@/lib/db'
import { hashPassword, verifyPassword } from '@/lib/auth/password'
import { issueToken } from '@/lib/auth/token'
import { badRequest, notFound } from '@/lib/http/app-error'
import { isTooCommon } from './common-passwords'
import { PROFILE_SELECT, toProfile, type Profile } from './user-views'

export async function getProfile(userId: string): Promise<Profile> {
  const row = await db().user.findUnique({ where: { id: userId }, select: PROFILE_SELECT })
  if (!row) throw notFound('用户不存在')
  return toProfile(row)
}

export async function updateProfile(userId: string, data: { name?: string; avatar?: string }): Promise<Profile> {
  const row = await db().user.update({ where: { id: userId }, data, select: PROFILE_SELECT })
  return toProfile(row)
}

/**
 * Changes the password after checking the current one, revokes every other token,
 * and returns a fresh token so this session continues.
 */
export async function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<{ token: string }> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { username: true, passwordHash: true } })
  if (!user) throw notFound('用户不存在')
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('当前密码不正确')
  if (isTooCommon(newPassword, user.username)) throw badRequest('密码太常见，请换一个更难猜的密码')
  const passwordHash = await hashPassword(newPassword)
  const updated = await db().user.update({
    where: { id: userId },
    data: { passwordHash, tokenVersion: { increment: 1 } },
    select: { tokenVersion: true },
  })
  return { token: await issueToken(userId, updated.tokenVersion) }
}

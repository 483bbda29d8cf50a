import 'server-only'
import { db } from '@/lib/db'
import { hashPassword, verifyPassword } from '@/lib/auth/password'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import { issueToken } from '@/lib/auth/token'
import { badRequest, notFound } from '@/lib/http/app-error'
import { isTooCommon } from './common-passwords'

/** Wrong current passwords per account, like failed logins: a stolen session cannot guess the password without limit. */
export const PASSWORD_CHANGE_LIMIT = { max: 5, windowSeconds: 15 * 60 }

/**
 * Changes the password after checking the current one, revokes every other token,
 * and returns a fresh token so this session continues. Each check is counted before
 * it runs (parallel guesses cannot slip under the limit); a right password is given back.
 */
export async function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<{ token: string }> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { username: true, passwordHash: true } })
  if (!user) throw notFound('用户不存在')
  if (user.passwordHash) {
    const attempt = await takeAttempt([{ key: `password-change:user:${userId}`, ...PASSWORD_CHANGE_LIMIT }], '密码验证')
    if (!(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('当前密码不正确')
    await attempt.release()
  }
  if (isTooCommon(newPassword, user.username)) throw badRequest('密码太常见，请换一个更难猜的密码')
  const passwordHash = await hashPassword(newPassword)
  const updated = await db().user.update({
    where: { id: userId },
    data: { passwordHash, tokenVersion: { increment: 1 } },
    select: { tokenVersion: true },
  })
  forgetSessionUser(userId)
  return { token: await issueToken(userId, updated.tokenVersion) }
}

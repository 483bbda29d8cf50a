import 'server-only'
import { db } from '@/lib/db'
import { hashPassword, verifyPassword } from '@/lib/auth/password'
import { isRecentSignIn } from '@/lib/auth/recent-sign-in'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { forgetSessionUser } from '@/lib/auth/session-cache'
import { issueToken } from '@/lib/auth/token'
import { badRequest, conflict, notFound } from '@/lib/http/app-error'
import { isTooCommon } from './common-passwords'

/**
 * Attempts per account, right or wrong, each counted before any hashing: a stolen session
 * cannot guess the current password without limit, and one account cannot queue hashes
 * that every sign-in of the process would wait behind.
 */
export const PASSWORD_CHANGE_LIMIT = { max: 5, windowSeconds: 15 * 60 }

/** An account made by WeChat or SMS has no password to check: a first one needs a recent sign-in. */
export const SIGN_IN_AGAIN = '为了账号安全，请重新登录后 10 分钟内设置密码'

/**
 * Changes the password after checking the current one, revokes every other token,
 * and returns a fresh token so this session continues. Each attempt is counted before
 * it runs (parallel ones cannot slip under the limit); a too common new password is
 * refused before counting, as it costs no hashing.
 */
export const CHANGED_MEANWHILE = '账号的密码或登录状态刚刚发生了变化，请重新登录后再试'

export async function changePassword(userId: string, currentPassword: string, newPassword: string, signedInAt: Date | null): Promise<{ token: string }> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { username: true, passwordHash: true, tokenVersion: true } })
  if (!user) throw notFound('用户不存在')
  if (!user.passwordHash && !isRecentSignIn(signedInAt)) throw badRequest(SIGN_IN_AGAIN)
  if (isTooCommon(newPassword, user.username)) throw badRequest('密码太常见，请换一个更难猜的密码')
  await takeAttempt([{ key: `password-change:user:${userId}`, ...PASSWORD_CHANGE_LIMIT }], '修改密码')
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('当前密码不正确')
  const passwordHash = await hashPassword(newPassword)
  // Only over what was checked: an admin's reset or a sign-out everywhere meanwhile wins, and
  // this request's token (revoked by it) gets no fresh one.
  const tokenVersion = user.tokenVersion + 1
  const { count } = await db().user.updateMany({
    where: { id: userId, passwordHash: user.passwordHash, tokenVersion: user.tokenVersion },
    data: { passwordHash, tokenVersion },
  })
  if (count === 0) throw conflict(CHANGED_MEANWHILE)
  forgetSessionUser(userId)
  return { token: await issueToken(userId, tokenVersion) }
}

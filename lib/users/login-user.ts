import 'server-only'
import { db } from '@/lib/db'
import { HASHING_BUSY, hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '@/lib/auth/password'
import { clearCounter, takeAttempt, type Limit } from '@/lib/auth/rate-limit'
import { issueToken } from '@/lib/auth/token'
import { AppError, badRequest, forbidden } from '@/lib/http/app-error'
import { limitAddress } from '@/lib/http/client-ip'

/**
 * Failed logins allowed before the wait (docs/PROTOCOLS.md §8.1). Counted per account from
 * each address, so a stranger's wrong passwords make only the stranger wait, not the owner
 * elsewhere; per account across all addresses much higher, against guessing spread over
 * many addresses; and per address across accounts, against spraying.
 */
export const LOGIN_LIMITS = {
  perAccountAndAddress: { max: 5, windowSeconds: 15 * 60 },
  perAccount: { max: 100, windowSeconds: 60 * 60 },
  perIp: { max: 20, windowSeconds: 15 * 60 },
}

const WRONG_CREDENTIALS = '用户名或密码错误'

function limitsFor(username: string, ip: string): [accountHere: Limit, account: Limit, address: Limit] {
  const address = limitAddress(ip)
  return [
    { key: `login:user:${username}:ip:${address}`, ...LOGIN_LIMITS.perAccountAndAddress },
    { key: `login:user:${username}`, ...LOGIN_LIMITS.perAccount },
    { key: `login:ip:${address}`, ...LOGIN_LIMITS.perIp },
  ]
}

/**
 * Checks a username and password. Unknown users and wrong passwords get the same
 * answer after the same work. Every attempt is counted before the check (so parallel
 * guesses cannot slip through) and successes are given back: failures per account and
 * per address are throttled with a wait, not a lock-out, so nobody can lock another
 * person out for good.
 */
export async function loginUser(username: string, password: string, ip: string): Promise<{ token: string }> {
  const limits = limitsFor(username, ip)
  const [accountHere, account] = limits
  const attempt = await takeAttempt(limits, '登录尝试')

  const user = await db().user.findUnique({
    where: { username },
    select: { id: true, passwordHash: true, tokenVersion: true, bannedAt: true },
  })
  let isValid: boolean
  try {
    isValid = user?.passwordHash ? await verifyPassword(user.passwordHash, password) : (await verifyAgainstDummy(password), false)
  } catch (error) {
    // Too many sign-ins at once (no hash slot): nothing was checked, so nothing counts against anyone.
    await attempt.release()
    throw error
  }
  if (!user || !isValid) throw badRequest(WRONG_CREDENTIALS)
  // A success does not count against the address, and forgives the account's failures.
  await attempt.release()
  await Promise.all([clearCounter(accountHere.key), clearCounter(account.key)])
  if (user.bannedAt) throw forbidden('账号已被禁用，请联系管理员')
  await rehashIfWeaker(user.id, user.passwordHash!, password)
  return { token: await issueToken(user.id, user.tokenVersion) }
}

/**
 * A hash stored with weaker parameters than today's (made before the cost was raised)
 * is stored again at the current cost, now that the password is known. Only if it is
 * still the same hash: a password changed meanwhile wins.
 */
async function rehashIfWeaker(userId: string, stored: string, password: string): Promise<void> {
  if (!needsRehash(stored)) return
  // A sign-in is not refused for a rehash: with every hash slot taken, the next sign-in does it.
  const passwordHash = await hashPassword(password).catch((error: unknown) => {
    if (error instanceof AppError && error.message === HASHING_BUSY) return null
    throw error
  })
  if (passwordHash) await db().user.updateMany({ where: { id: userId, passwordHash: stored }, data: { passwordHash } })
}

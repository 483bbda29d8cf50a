import 'server-only'
import { db, type Tx } from '@/lib/db'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { badRequest, unauthorized } from '@/lib/http/app-error'
import { limitAddress } from '@/lib/http/client-ip'
import type { SmsPurpose } from './schemas'
import { SMS_MAX_WRONG_TRIES, hashSmsCode, isSameHash } from './sms-code'

/** Wrong codes allowed per address across all phones (each code also dies after five). */
export const SMS_VERIFY_IP_LIMIT = { max: 30, windowSeconds: 15 * 60 }

const USED = '验证码已使用，请重新获取'
const EXPIRED = '验证码已过期，请重新获取'
const DEAD = '验证码错误次数过多，已失效，请重新获取'

/**
 * Checks a code against the newest one sent to this phone for this purpose (for
 * binding: the newest one the same user asked for; nobody else's counts) and returns
 * its id; the caller marks it used (markSmsCodeUsed) in the transaction that acts on
 * it. The try is counted before the comparison, in one conditional UPDATE, so parallel
 * guesses can never compare more than five times against one code.
 */
export async function checkSmsCode(mobile: string, purpose: SmsPurpose, code: string, ip: string, userId: string | null = null): Promise<number> {
  if (purpose === 'bind' && !userId) throw unauthorized()
  const attempt = await takeAttempt([{ key: `sms:verify:ip:${limitAddress(ip)}`, ...SMS_VERIFY_IP_LIMIT }], '验证码校验')
  const latest = await db().smsCode.findFirst({
    where: { mobile, purpose, ...(purpose === 'bind' ? { userId } : {}) },
    orderBy: { id: 'desc' },
    select: { id: true, usedAt: true, expiresAt: true, attempts: true },
  })
  if (!latest) throw badRequest('请先获取验证码')

  const counted = await db().$queryRaw<{ codeHash: string; attempts: number }[]>`
    UPDATE "SmsCode" SET "attempts" = "attempts" + 1
    WHERE "id" = ${latest.id} AND "usedAt" IS NULL AND "attempts" < ${SMS_MAX_WRONG_TRIES} AND "expiresAt" > now()
    RETURNING "codeHash", "attempts"`
  const [first] = counted
  if (!first) {
    const now = await db().smsCode.findUniqueOrThrow({ where: { id: latest.id }, select: { usedAt: true, attempts: true } })
    throw badRequest(now.usedAt ? USED : now.attempts >= SMS_MAX_WRONG_TRIES ? DEAD : EXPIRED)
  }
  const { codeHash, attempts } = first
  if (!isSameHash(codeHash, hashSmsCode(mobile, purpose, code))) {
    const left = SMS_MAX_WRONG_TRIES - attempts
    throw badRequest(left > 0 ? `验证码错误，还可尝试 ${left} 次` : DEAD)
  }
  await attempt.release()
  return latest.id
}

/** Uses the code up, in the caller's transaction: only one of two racing requests wins. */
export async function markSmsCodeUsed(tx: Tx, id: number): Promise<void> {
  const { count } = await tx.smsCode.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } })
  if (count === 0) throw badRequest(USED)
}

import 'server-only'
import { db } from '@/lib/db'
import { hashPassword } from '@/lib/auth/password'
import { takeAttempt, type Limit } from '@/lib/auth/rate-limit'
import { issueToken } from '@/lib/auth/token'
import { badRequest, conflict, forbidden } from '@/lib/http/app-error'
import { getConfigValue } from '@/lib/site-config/store'
import { isTooCommon } from './common-passwords'
import type { TCredentials } from './schemas'
import { grantSignupGift } from '@/lib/ledger/grant-signup-gift'
import { bindInviterAtSignUp } from '@/lib/invites/bind-inviter'
import { limitAddress } from '@/lib/http/client-ip'

/**
 * Sign-ups per address, every attempt counted (a taken name too, so names cannot be
 * probed without limit): enough for a family or an office behind one address, not for
 * an account farm.
 */
export const REGISTER_LIMITS = {
  perIpHour: { max: 30, windowSeconds: 60 * 60 },
  perIpDay: { max: 100, windowSeconds: 24 * 60 * 60 },
}

const limitsFor = (ip: string): Limit[] => [
  { key: `register:ip:hour:${limitAddress(ip)}`, ...REGISTER_LIMITS.perIpHour },
  { key: `register:ip:day:${limitAddress(ip)}`, ...REGISTER_LIMITS.perIpDay },
]

/** Creates a USER account with a password and signs it in; `agreeTerms` records the user's consent to the terms, `invite` binds an inviter. */
export async function registerUser({ username, password, agreeTerms, invite }: TCredentials, ip: string): Promise<{ token: string }> {
  if (!(await getConfigValue<boolean>('REGISTER_ENABLED'))) throw forbidden('本站暂未开放注册')
  await takeAttempt(limitsFor(ip), '注册')
  if (isTooCommon(password, username)) throw badRequest('密码太常见，请换一个更难猜的密码')
  const passwordHash = await hashPassword(password)
  try {
    const user = await db().$transaction(async (tx) => {
      const created = await tx.user.create({
        data: { username, name: username, passwordHash, agreedTermsAt: agreeTerms ? new Date() : null },
        select: { id: true, tokenVersion: true },
      })
      await grantSignupGift(tx, created.id)
      await bindInviterAtSignUp(tx, created.id, invite)
      return created
    })
    return { token: await issueToken(user.id, user.tokenVersion) }
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw conflict('用户名已被占用')
    throw error
  }
}

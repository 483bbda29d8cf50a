import 'server-only'
import { db } from '@/lib/db'
import { issueToken } from '@/lib/auth/token'
import { forbidden } from '@/lib/http/app-error'
import { getConfigValue } from '@/lib/site-config/store'
import { generatedUsername } from '@/lib/users/generated-username'
import { checkSmsCode, markSmsCodeUsed } from './verify-code'
import { grantSignupGift } from '@/lib/ledger/grant-signup-gift'
import { bindInviterAtSignUp } from '@/lib/invites/bind-inviter'

const SELECT = { id: true, tokenVersion: true, bannedAt: true } as const

/**
 * Signs in with a phone and its code; the first sign-in creates the account (named
 * 用户 + the last four digits, with a generated username), noting the consent to the
 * terms when the page asked for it, and binding the inviter of an invite link.
 */
export async function loginBySms(
  mobile: string,
  code: string,
  ip: string,
  options: { agreeTerms?: boolean; invite?: string } = {},
): Promise<{ token: string }> {
  if (!(await getConfigValue<boolean>('SMS_LOGIN_ENABLED'))) throw forbidden('本站未开启手机验证码登录')
  const codeId = await checkSmsCode(mobile, 'login', code, ip)
  const user = await db().$transaction(async (tx) => {
    await markSmsCodeUsed(tx, codeId)
    const existing = await tx.user.findUnique({ where: { mobile }, select: SELECT })
    if (existing) return existing
    const agreedTermsAt = options.agreeTerms ? new Date() : null
    const created = await tx.user.create({ data: { username: generatedUsername('u'), name: `用户${mobile.slice(-4)}`, mobile, agreedTermsAt }, select: SELECT })
    await grantSignupGift(tx, created.id)
    await bindInviterAtSignUp(tx, created.id, options.invite)
    return created
  })
  if (user.bannedAt) throw forbidden('账号已被禁用，请联系管理员')
  return { token: await issueToken(user.id, user.tokenVersion) }
}

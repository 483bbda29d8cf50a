import 'server-only'
import { db } from '@/lib/db'
import { takeAttempt, type Limit } from '@/lib/auth/rate-limit'
import { SIGN_IN_TO_BIND_MOBILE, assertRecentSignIn } from '@/lib/auth/recent-sign-in'
import type { SessionUser } from '@/lib/auth/session'
import { AppError, forbidden, serviceUnavailable, tooManyRequests, unauthorized } from '@/lib/http/app-error'
import { getConfigValue } from '@/lib/site-config/store'
import { limitAddress } from '@/lib/http/client-ip'
import { assertCanBindMobile } from './bind-mobile'
import { SmsSendError } from './providers/types'
import type { SmsPurpose } from './schemas'
import { SMS_CODE_TTL_SECONDS, hashSmsCode, newSmsCode } from './sms-code'
import { currentSmsProvider } from './sms-provider'

/** Sending limits (docs/PROTOCOLS.md §8.2): per phone whatever the purpose, per address, and per signed-in user for binding. */
export const SMS_SEND_LIMITS = {
  perPhoneCooldown: { max: 1, windowSeconds: 60 },
  perPhoneHour: { max: 5, windowSeconds: 60 * 60 },
  perPhoneDay: { max: 10, windowSeconds: 24 * 60 * 60 },
  perIpDay: { max: 20, windowSeconds: 24 * 60 * 60 },
  perUserDay: { max: 10, windowSeconds: 24 * 60 * 60 },
}

/** The caller's limits: counted before anything about the phone is looked at or said. */
function callerLimits(ip: string, userId: string | null): Limit[] {
  return [
    { key: `sms:ip:day:${limitAddress(ip)}`, ...SMS_SEND_LIMITS.perIpDay },
    ...(userId ? [{ key: `sms:user:day:${userId}`, ...SMS_SEND_LIMITS.perUserDay }] : []),
  ]
}

function phoneLimits(mobile: string): Limit[] {
  return [
    { key: `sms:phone:60s:${mobile}`, ...SMS_SEND_LIMITS.perPhoneCooldown },
    { key: `sms:phone:hour:${mobile}`, ...SMS_SEND_LIMITS.perPhoneHour },
    { key: `sms:phone:day:${mobile}`, ...SMS_SEND_LIMITS.perPhoneDay },
  ]
}

export const SMS_SITE_CAP_REACHED = '今日短信发送量已达本站上限，请明天再试或联系管理员'

/**
 * All sends of the site on one China calendar day (SMS_DAILY_LIMIT), against SMS pumping:
 * a ceiling on what a flood of numbers and addresses can cost.
 */
async function takeSiteDailySend(): Promise<{ release(): Promise<void> }> {
  const max = await getConfigValue<number>('SMS_DAILY_LIMIT')
  const chinaDay = new Date(Date.now() + 8 * 60 * 60 * 1000).toISOString().slice(0, 10)
  try {
    return await takeAttempt([{ key: `sms:site:day:${chinaDay}`, max, windowSeconds: 24 * 60 * 60 }], '短信发送')
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'TOO_MANY_REQUESTS') throw error
    console.warn(`[sms] the site's daily limit of ${max} codes is reached; sends are refused until midnight (Beijing time)`)
    throw tooManyRequests(SMS_SITE_CAP_REACHED)
  }
}

/**
 * `provider: 'log'` (only then present): the code went to the server log, not to a phone,
 * so the page can say where it is (a trial site).
 */
export type SmsSendResult = { resendAfterSeconds: number; expiresInSeconds: number; provider?: 'log' }

/**
 * Sends a fresh 6-digit code for signing in or for binding the phone to the caller's
 * account (a bind code belongs to that account alone, which must have signed in
 * recently). The caller's attempt is counted (per address, per user) before the phone is checked against other accounts, so
 * nobody can ask without limit which numbers are registered; that refusal keeps the
 * count. A send refused by the per-phone limits, the site's daily limit or the provider
 * is given back. A new code replaces the previous one (only the newest counts).
 */
export async function sendSmsCode(input: {
  mobile: string
  purpose: SmsPurpose
  ip: string
  user: Pick<SessionUser, 'id' | 'signedInAt'> | null
}): Promise<SmsSendResult> {
  const { mobile, purpose, ip } = input
  if (purpose === 'login' && !(await getConfigValue<boolean>('SMS_LOGIN_ENABLED'))) throw forbidden('本站未开启手机验证码登录')
  const binder = purpose === 'bind' ? input.user : null
  if (purpose === 'bind') {
    if (!binder) throw unauthorized()
    assertRecentSignIn(binder.signedInAt, SIGN_IN_TO_BIND_MOBILE)
  }
  const userId = binder?.id ?? null
  const provider = await currentSmsProvider()
  const caller = await takeAttempt(callerLimits(ip, userId), '验证码发送')
  if (userId) await assertCanBindMobile(userId, mobile)
  const phone = await takeAttempt(phoneLimits(mobile), '验证码发送').catch(async (error: unknown) => {
    await caller.release()
    throw error
  })
  const site = await takeSiteDailySend().catch(async (error: unknown) => {
    await Promise.all([caller.release(), phone.release()])
    throw error
  })

  const code = newSmsCode()
  const row = await db().smsCode.create({
    data: { mobile, purpose, userId, codeHash: hashSmsCode(mobile, purpose, code), expiresAt: new Date(Date.now() + SMS_CODE_TTL_SECONDS * 1000), ip },
    select: { id: true },
  })
  try {
    await provider.sendCode(mobile, code)
  } catch (error) {
    await db().smsCode.delete({ where: { id: row.id } })
    await Promise.all([caller.release(), phone.release(), site.release()])
    if (!(error instanceof SmsSendError)) throw error
    console.error(`[sms] sending to ${mobile.slice(0, 3)}****${mobile.slice(-4)} failed: ${error.detail}`)
    throw serviceUnavailable('短信发送失败，请稍后再试')
  }
  return {
    resendAfterSeconds: SMS_SEND_LIMITS.perPhoneCooldown.windowSeconds,
    expiresInSeconds: SMS_CODE_TTL_SECONDS,
    ...(provider.name === 'log' ? { provider: 'log' as const } : {}),
  }
}

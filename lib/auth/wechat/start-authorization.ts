import 'server-only'
import { env } from '@/lib/env'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { SIGN_IN_TO_BIND_WECHAT, assertRecentSignIn } from '@/lib/auth/recent-sign-in'
import type { SessionUser } from '@/lib/auth/session'
import { db } from '@/lib/db'
import { badRequest, conflict, unauthorized } from '@/lib/http/app-error'
import { safeRedirectPath } from '@/lib/safe-redirect'
import { limitAddress } from '@/lib/http/client-ip'
import { WX_CALLBACK_PATH, wechatAuthorizeUrl, wechatQrConnectUrl } from './authorize-url'
import { assertTicketIdentifiable } from './login-ticket'
import { WECHAT_MESSAGES } from './messages'
import { createOAuthState, type OAuthPurpose } from './oauth-state'
import { wechatMpApp, wechatOpenApp } from './wechat-config'

export const AUTHORIZE_LIMIT = { max: 30, windowSeconds: 10 * 60 }

export type StartInput = {
  purpose: OAuthPurpose
  /** Where to go afterwards (login, bind, open); any unsafe value becomes '/'. */
  returnPath?: string
  ticketId?: string
  /** The sealed desktop details of the ticket's QR link (purpose ticket). */
  ticketFrom?: string
  /** An invite code from the sign-in page's link: kept on the state for the account the callback may create. */
  invite?: string
  user: SessionUser | null
  origin: string
  ip: string
}

/**
 * Starts a WeChat authorization: checks the purpose can go ahead, stores a single-use
 * state and answers the WeChat page to send the browser to (with the state, which the
 * route also sets as this browser's cookie, and for a QR ticket the sealed desktop
 * details, which the callback shows the phone).
 */
export async function startWechatAuthorization(input: StartInput): Promise<{ url: string; state: string; ticketFrom?: string }> {
  const { purpose, origin } = input
  const app = purpose === 'open' ? await wechatOpenApp() : await wechatMpApp()
  await takeAttempt([{ key: `wx-authorize:ip:${limitAddress(input.ip)}`, ...AUTHORIZE_LIMIT }], '微信授权请求')

  let userId: string | undefined
  let tokenVersion: number | undefined
  if (purpose === 'bind') {
    if (!input.user) throw unauthorized()
    const self = await db().user.findUnique({ where: { id: input.user.id }, select: { wxOpenId: true, tokenVersion: true } })
    if (!self) throw unauthorized()
    if (self.wxOpenId) throw conflict(WECHAT_MESSAGES.bound)
    assertRecentSignIn(input.user.signedInAt, SIGN_IN_TO_BIND_WECHAT)
    userId = input.user.id
    tokenVersion = self.tokenVersion
  }
  if (purpose === 'ticket') {
    if (!input.ticketId) throw badRequest('缺少二维码编号')
    await assertTicketIdentifiable(input.ticketId, input.ticketFrom)
  }

  const returnPath = purpose === 'ticket' ? '/' : safeRedirectPath(input.returnPath, origin)
  const state = await createOAuthState({
    purpose,
    returnPath,
    userId,
    tokenVersion,
    ticketId: purpose === 'ticket' ? input.ticketId : undefined,
    inviteCode: purpose === 'bind' ? undefined : input.invite || undefined,
  })
  const redirectUri = `${origin}${WX_CALLBACK_PATH}`
  const base = env().WX_OPEN_BASE
  const url = purpose === 'open' ? wechatQrConnectUrl(base, app.appId, redirectUri, state) : wechatAuthorizeUrl(base, app.appId, redirectUri, state)
  return { url, state, ticketFrom: purpose === 'ticket' ? input.ticketFrom : undefined }
}

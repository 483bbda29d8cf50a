import 'server-only'
import { db } from '@/lib/db'
import { issueToken } from '@/lib/auth/token'
import { badRequest, conflict } from '@/lib/http/app-error'
import { ticketConfirmKey } from './confirm-ticket'
import { openDesktopDetails, type DesktopDetails } from './desktop-details'
import { TICKET_INVALID, identifyLoginTicket } from './login-ticket'
import { consumeOAuthState } from './oauth-state'
import { exchangeCode, fetchUserInfo } from './wechat-api'
import { wechatMpApp, wechatOpenApp } from './wechat-config'
import { WECHAT_TAKEN, avatarFromWechat, bindWechatToUser, findOrCreateWechatUser, type WechatIdentity } from './wechat-identity'

export type WechatOutcome = { kind: 'login'; token: string; returnPath: string } | { kind: 'bound'; returnPath: string } | TicketIdentified

/** The phone now knows who it is and where the desktop is; it still has to confirm (confirm-ticket.ts). */
export type TicketIdentified = {
  kind: 'ticket-identified'
  ticketId: string
  /** The one-time value for POST /api/auth/wechat/ticket/{id}/confirm from this browser. */
  confirmKey: string
  /** The account the desktop will be signed in to. */
  name: string
  desktop: DesktopDetails & { createdAt: Date; expiresAt: Date }
}

export const SNAPSHOT_USER = '当前是微信快照页，无法登录。请点击页面底部的“使用完整服务”后重试'
const NO_UNIONID = '微信开放平台未返回 UnionID（网站应用需要绑定到开放平台账号），无法登录，请联系管理员'

/**
 * The callback of every WeChat authorization (/wx_auth): uses up the state, trades the
 * code for the user's identity, refuses snapshot-page users (their identity is
 * virtual), then signs in, binds to the signed-in user, or identifies the phone's user
 * for a desktop ticket (never confirming it: that takes the phone's explicit request).
 */
export async function completeWechatAuthorization(input: {
  code: string
  state: string
  cookieState: string | null
  ticketFrom?: string | null
}): Promise<WechatOutcome> {
  const state = await consumeOAuthState(input.state, input.cookieState)
  const desktop = state.purpose === 'ticket' ? openDesktopDetails(state.ticketId!, input.ticketFrom) : null
  if (state.purpose === 'ticket' && !desktop) throw badRequest(TICKET_INVALID)
  const app = state.purpose === 'open' ? await wechatOpenApp() : await wechatMpApp()
  const grant = await exchangeCode(app, input.code)
  if (grant.is_snapshotuser === 1) throw badRequest(SNAPSHOT_USER)
  const info = await fetchUserInfo(grant.access_token, grant.openid)
  const unionid = info.unionid || grant.unionid || null
  // An Open Platform openid belongs to the website app, not to the 公众号 whose openid we keep.
  if (app.kind === 'open' && !unionid) throw badRequest(NO_UNIONID)
  const identity: WechatIdentity = {
    openid: app.kind === 'mp' ? grant.openid : null,
    unionid,
    nickname: info.nickname ?? '',
    avatar: avatarFromWechat(info.headimgurl),
  }

  if (state.purpose === 'bind') {
    await db()
      .$transaction((tx) => bindWechatToUser(tx, state.userId!, identity, state.tokenVersion))
      .catch((error: { code?: string }) => {
        // Another account took this WeChat between the check and the update.
        throw error.code === 'P2002' ? conflict(WECHAT_TAKEN) : error
      })
    return { kind: 'bound', returnPath: state.returnPath }
  }
  if (state.purpose === 'ticket') {
    const { user, ticket } = await withOneRetryOnRace(() =>
      db().$transaction(async (tx) => {
        const found = await findOrCreateWechatUser(tx, identity, { invite: state.inviteCode })
        const identified = await identifyLoginTicket(tx, { ticketId: state.ticketId!, userId: found.id, state: state.state, desktop: desktop! })
        return { user: found, ticket: identified }
      }),
    )
    return {
      kind: 'ticket-identified',
      ticketId: ticket.ticketId,
      confirmKey: ticketConfirmKey(state.state, ticket.ticketId),
      name: user.name,
      desktop: { ...ticket.desktop, createdAt: ticket.createdAt, expiresAt: ticket.expiresAt },
    }
  }
  const user = await withOneRetryOnRace(() => db().$transaction((tx) => findOrCreateWechatUser(tx, identity, { invite: state.inviteCode })))
  return { kind: 'login', token: await issueToken(user.id, user.tokenVersion), returnPath: state.returnPath }
}

/** Two first sign-ins of one new WeChat user at once: the loser's insert hits the unique index; its retry finds the winner's account. */
async function withOneRetryOnRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if ((error as { code?: string }).code !== 'P2002') throw error
    return work()
  }
}

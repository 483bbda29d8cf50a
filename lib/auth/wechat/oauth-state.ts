import 'server-only'
import { randomBytes } from 'node:crypto'
import { db } from '@/lib/db'
import { badRequest } from '@/lib/http/app-error'

/**
 * The `state` of a WeChat authorization: a random single-use value stored with what
 * the flow is for, and bound to the browser that started it by an HttpOnly cookie
 * (docs/PROTOCOLS.md §5.1: CSRF defence). WeChat's code lives 5 minutes; the state a little
 * longer, for the time the user spends on WeChat's consent page.
 */
export const OAUTH_STATE_TTL_SECONDS = 10 * 60
export const STATE_COOKIE = 'wx_oauth_state'
const COOKIE_PATH = '/api/auth/wechat'

/**
 * login: sign in inside WeChat; bind: add WeChat to the signed-in user; ticket: identify
 * the phone's user for a desktop QR login (confirming is a separate request); open: the
 * Open Platform qrconnect login.
 */
export const OAUTH_PURPOSES = ['login', 'bind', 'ticket', 'open'] as const
export type OAuthPurpose = (typeof OAUTH_PURPOSES)[number]

export type OAuthStateRow = {
  state: string
  purpose: OAuthPurpose
  userId: string | null
  ticketId: string | null
  returnPath: string
  inviteCode: string | null
  tokenVersion: number | null
}

const STATE_INVALID = '微信授权状态无效，请重新发起微信登录'

export async function createOAuthState(data: {
  purpose: OAuthPurpose
  returnPath: string
  userId?: string
  ticketId?: string
  inviteCode?: string
  tokenVersion?: number
}): Promise<string> {
  // [a-zA-Z0-9], at most 128 bytes, as WeChat requires.
  const state = randomBytes(24).toString('hex')
  await db().oAuthState.create({ data: { state, ...data, expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_SECONDS * 1000) } })
  return state
}

/**
 * Uses a state up: it must be the one this browser started (the cookie), unused and
 * unexpired. One conditional UPDATE decides, so a replayed callback cannot win twice.
 */
export async function consumeOAuthState(state: string, cookieState: string | null): Promise<OAuthStateRow> {
  if (!cookieState || cookieState !== state) throw badRequest(STATE_INVALID)
  const row = await db().oAuthState.findUnique({ where: { state } })
  if (!row) throw badRequest(STATE_INVALID)
  if (row.usedAt) throw badRequest('该微信授权已处理过，请重新发起微信登录')
  if (row.expiresAt <= new Date()) throw badRequest('微信授权已过期，请重新发起微信登录')
  const { count } = await db().oAuthState.updateMany({ where: { state, usedAt: null }, data: { usedAt: new Date() } })
  if (count === 0) throw badRequest('该微信授权已处理过，请重新发起微信登录')
  return {
    state,
    purpose: row.purpose as OAuthPurpose,
    userId: row.userId,
    ticketId: row.ticketId,
    returnPath: row.returnPath,
    inviteCode: row.inviteCode,
    tokenVersion: row.tokenVersion,
  }
}

/**
 * The desktop details of a QR ticket (desktop-details.ts) ride beside the state, so the
 * callback can show the phone where the login was started before it is confirmed.
 */
export const TICKET_FROM_COOKIE = 'wx_ticket_from'

function cookie(name: string, value: string, maxAge: number, secure: boolean): string {
  return `${name}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
}

/** The Set-Cookie values that bind an authorization to this browser. */
export function stateCookies(state: string, secure: boolean, ticketFrom?: string): string[] {
  const cookies = [cookie(STATE_COOKIE, state, OAUTH_STATE_TTL_SECONDS, secure)]
  if (ticketFrom) cookies.push(cookie(TICKET_FROM_COOKIE, ticketFrom, OAUTH_STATE_TTL_SECONDS, secure))
  return cookies
}

export function clearedStateCookies(secure: boolean): string[] {
  return [cookie(STATE_COOKIE, '', 0, secure), cookie(TICKET_FROM_COOKIE, '', 0, secure)]
}

/** Response headers setting these cookies (one Set-Cookie header each). */
export function setCookieHeaders(cookies: string[], extra: Record<string, string> = {}): [string, string][] {
  return [...Object.entries(extra), ...cookies.map((c): [string, string] => ['set-cookie', c])]
}

export function readCookie(headers: Headers, name: string): string | null {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=') || null
  }
  return null
}

export function readStateCookie(headers: Headers): string | null {
  return readCookie(headers, STATE_COOKIE)
}

import { expect } from 'vitest'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import * as authorize from '@/app/api/auth/wechat/authorize/route'
import * as callback from '@/app/api/auth/wechat/callback/route'
import { callRoute, type CallResult } from './call-route'
import { expectOk } from './expect-response'

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

/** Sets site settings through the admin API, as an operator would. */
export async function configure(adminToken: string, settings: Record<string, string | number | boolean>): Promise<void> {
  for (const [name, value] of Object.entries(settings)) {
    expectOk(await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: adminToken, params: { name }, body: { value } }))
  }
}

/** Calls a handler and hands back the raw Response (redirects, cookies). */
export async function rawCall(
  handler: Handler,
  options: {
    method?: string
    query?: Record<string, string>
    body?: unknown
    token?: string
    ip?: string
    params?: Record<string, string>
    headers?: Record<string, string>
  } = {},
): Promise<Response> {
  const url = new URL('http://localhost/api/test')
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v)
  const headers = new Headers({ 'content-type': 'application/json', 'x-client-ip': options.ip ?? '10.0.0.1', ...options.headers })
  if (options.token) headers.set('authorization', `Bearer ${options.token}`)
  const req = new Request(url, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
  return handler(req, { params: Promise.resolve(options.params ?? {}) })
}

export const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN'

export type Started = { wechatUrl: string; state: string; cookie: string }

/**
 * The cookies an authorize response set, as a Cookie header (name=value; ...), checking
 * their attributes: the state, and for a QR ticket the sealed desktop details.
 */
function stateCookieOf(res: Response): string {
  const set = res.headers.getSetCookie()
  expect(set[0]).toMatch(/^wx_oauth_state=[0-9a-f]{48}; Path=\/api\/auth\/wechat; Max-Age=600; HttpOnly; SameSite=Lax$/)
  for (const extra of set.slice(1)) expect(extra).toMatch(/^wx_ticket_from=[A-Za-z0-9_-]+; Path=\/api\/auth\/wechat; Max-Age=600; HttpOnly; SameSite=Lax$/)
  return set.map((cookie) => cookie.split(';')[0]).join('; ')
}

/** GET /api/auth/wechat/authorize (the link the pages use) → where it redirects, with the state cookie. */
export async function startByLink(query: Record<string, string>, ip?: string): Promise<Started> {
  const res = await rawCall(authorize.GET, { query, ip })
  expect(res.status).toBe(302)
  const wechatUrl = res.headers.get('location')!
  const cookie = stateCookieOf(res)
  return { wechatUrl, cookie, state: new URL(wechatUrl).searchParams.get('state')! }
}

/** POST /api/auth/wechat/authorize (the signed-in start-up rule) → data.url, with the state cookie. */
export async function startByRequest(body: Record<string, string>, token?: string, ip?: string): Promise<Started> {
  const res = await rawCall(authorize.POST, { method: 'POST', body, token, ip })
  const envelope = await res.json()
  expect(envelope, JSON.stringify(envelope)).toMatchObject({ success: true })
  const wechatUrl = envelope.data.url as string
  return { wechatUrl, cookie: stateCookieOf(res), state: new URL(wechatUrl).searchParams.get('state')! }
}

/** Opens WeChat's page like the phone would; the fake agrees at once and redirects back to /wx_auth. */
export async function passThroughWechat(wechatUrl: string, userAgent = WECHAT_UA): Promise<{ code: string | null; state: string | null; callback: URL }> {
  const res = await fetch(wechatUrl.replace('#wechat_redirect', ''), { headers: { 'user-agent': userAgent }, redirect: 'manual' })
  expect(res.status, await res.clone().text()).toBe(302)
  const callbackUrl = new URL(res.headers.get('location')!)
  return { code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state'), callback: callbackUrl }
}

/** What /wx_auth posts back, with this browser's cookie. */
export function finish(code: string, state: string, cookie: string | null): Promise<CallResult> {
  return callRoute(callback.POST, { body: { code, state }, headers: cookie ? { cookie } : {} })
}

/** The whole in-WeChat round trip for a purpose. */
export async function wechatRoundTrip(start: Promise<Started>): Promise<CallResult> {
  const started = await start
  const back = await passThroughWechat(started.wechatUrl)
  expect(back.state).toBe(started.state)
  return finish(back.code!, back.state!, started.cookie)
}

import { env } from '@/lib/env'
import { AppError, badRequest, serviceUnavailable } from '@/lib/http/app-error'
import { guardedFetch } from '@/lib/net/guarded-fetch'
import type { WechatApp } from './wechat-config'

/** The answer of /sns/oauth2/access_token (docs/PROTOCOLS.md §5.1 step 3). */
export type WechatGrant = { access_token: string; openid: string; scope: string; unionid?: string; is_snapshotuser?: number }
/** The answer of /sns/userinfo (step 4). */
export type WechatUserInfo = { openid: string; nickname?: string; headimgurl?: string; unionid?: string }

const TIMEOUT_MS = 10_000
const CODE_INVALID = '微信授权码无效或已使用，请重新发起微信登录'

const GRANT_EXPIRED = '微信授权已失效，请重新发起微信登录'
const MISCONFIGURED = '微信登录配置有误（AppID 或 AppSecret 不正确），请联系管理员'

/**
 * WeChat's documented error codes, as something a user or an operator can act on. The
 * same code means different things per endpoint: on /sns/userinfo 40001 is the user's
 * web access token (invalid or replaced), not the AppSecret, which that call never sends.
 */
export function wechatError(errcode: number, errmsg: string, path: string): AppError {
  console.warn(`[wechat] ${path} errcode ${errcode}: ${errmsg}`)
  if ([40029, 40163, 42003].includes(errcode)) return badRequest(CODE_INVALID)
  if (path === '/sns/userinfo') {
    if ([40001, 40014, 42001].includes(errcode)) return badRequest(GRANT_EXPIRED)
  } else if ([40013, 40125, 40001, 41004].includes(errcode)) {
    return serviceUnavailable(MISCONFIGURED)
  }
  if (errcode === 48001) return serviceUnavailable('公众号没有网页授权接口权限，请联系管理员')
  if (errcode === -1) return serviceUnavailable('微信服务繁忙，请稍后再试')
  return serviceUnavailable(`微信接口返回错误（${errcode}），请稍后再试`)
}

async function callWechat<T>(path: string, query: Record<string, string>): Promise<T> {
  const url = new URL(path, env().WX_API_BASE)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  let text: string
  try {
    const res = await guardedFetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
    text = await res.text()
  } catch (error) {
    console.warn(`[wechat] ${path} unreachable: ${(error as Error).message}`)
    throw serviceUnavailable('无法连接微信服务器，请稍后再试')
  }
  // WeChat answers JSON as text/plain, and errors as {errcode, errmsg} with HTTP 200.
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    console.warn(`[wechat] ${path} answered something that is not JSON: ${text.slice(0, 200)}`)
    throw serviceUnavailable('微信服务器返回了无法识别的内容，请稍后再试')
  }
  if (typeof body.errcode === 'number' && body.errcode !== 0) throw wechatError(body.errcode, String(body.errmsg ?? ''), path)
  return body as T
}

/** Exchanges the callback's code for an access token and the user's openid (server side only: it carries the secret). */
export async function exchangeCode(app: WechatApp, code: string): Promise<WechatGrant> {
  const grant = await callWechat<WechatGrant>('/sns/oauth2/access_token', { appid: app.appId, secret: app.secret, code, grant_type: 'authorization_code' })
  if (typeof grant.access_token !== 'string' || typeof grant.openid !== 'string') throw serviceUnavailable('微信服务器返回了无法识别的内容，请稍后再试')
  return grant
}

export async function fetchUserInfo(accessToken: string, openid: string): Promise<WechatUserInfo> {
  const info = await callWechat<WechatUserInfo>('/sns/userinfo', { access_token: accessToken, openid, lang: 'zh_CN' })
  if (info.openid !== openid) throw serviceUnavailable('微信服务器返回了无法识别的内容，请稍后再试')
  return info
}

import { canEnterAdmin } from '@/lib/auth/permissions'
import { WX_CALLBACK_PATH } from '@/lib/auth/wechat/authorize-url'
import type { Role } from '@/lib/generated/prisma/enums'

/**
 * docs/PRODUCT.md §4.5 "After the user info loads", as pure decisions the app shell acts on.
 * The WeChat authorization itself is started by the server (it stores a single-use
 * state for the signed-in user), so the decision names the endpoint, not WeChat's URL.
 */
export type StartUser = { mobile: string | null; oauth: { hasOpenId: boolean }; role?: Role }
export type StartConfig = { WX_ENABLED: boolean; WX_APP_ID: string; MOBILE_ENABLED: boolean }

export const BIND_MOBILE_PATH = '/bind_mobile'
export { WX_CALLBACK_PATH }
export const WECHAT_AUTHORIZE_ENDPOINT = '/api/auth/wechat/authorize'

/** Session-storage key 'f' (docs/PRODUCT.md §4.5): the page to return to after WeChat authorization. */
export const RETURN_PATH_KEY = 'f'
/**
 * Session-storage flag: WeChat authorization was tried this session and cannot bind
 * (declined, snapshot page, WeChat already on another account, not configured), so
 * the start-up rule does not send the user round in circles.
 */
export const WECHAT_DECLINED_KEY = 'wx_declined'

export function isWechatBrowser(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent)
}

export type StartAction =
  { kind: 'wechat-authorize'; endpoint: string; body: { purpose: 'bind'; returnPath: string } } | { kind: 'bind-mobile'; href: string } | { kind: 'none' }

export function decideStartAction(input: {
  user: StartUser
  config: StartConfig
  userAgent: string
  pathname: string
  /** The query string of the current page, with its '?' (or ''). */
  search: string
  wechatDeclined: boolean
}): StartAction {
  const { user, config, userAgent, pathname, search, wechatDeclined } = input
  // The callback page is finishing an authorization: leaving it would lose the result.
  if (pathname === WX_CALLBACK_PATH) return { kind: 'none' }
  const here = pathname + search
  if (!user.oauth.hasOpenId && isWechatBrowser(userAgent) && config.WX_ENABLED && config.WX_APP_ID && !wechatDeclined) {
    return { kind: 'wechat-authorize', endpoint: WECHAT_AUTHORIZE_ENDPOINT, body: { purpose: 'bind', returnPath: here } }
  }
  // The console stays open to its staff: with SMS set up wrong, nobody could bind a phone,
  // and the setting that requires one could not be switched off.
  const inConsole = pathname === '/admin' || pathname.startsWith('/admin/')
  if (config.MOBILE_ENABLED && !user.mobile && pathname !== BIND_MOBILE_PATH && !(inConsole && user.role && canEnterAdmin(user.role))) {
    return { kind: 'bind-mobile', href: `${BIND_MOBILE_PATH}?redirect=${encodeURIComponent(here)}` }
  }
  return { kind: 'none' }
}

/**
 * SPEC section 4 "After user info loads", as pure decisions the app shell acts on.
 */
export type StartUser = { mobile: string | null; oauth: { hasOpenId: boolean } }
export type StartConfig = { WX_ENABLED: boolean; WX_APP_ID: string; MOBILE_ENABLED: boolean }

export const BIND_MOBILE_PATH = '/bind_mobile'
export const WX_CALLBACK_PATH = '/wx_auth'

export function isWechatBrowser(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent)
}

export type StartAction = { kind: 'wechat-authorize'; url: string } | { kind: 'bind-mobile' } | { kind: 'none' }

export function decideStartAction(input: {
  user: StartUser
  config: StartConfig
  userAgent: string
  pathname: string
  origin: string
  state: string
}): StartAction {
  const { user, config, userAgent, pathname, origin, state } = input
  if (!user.oauth.hasOpenId && isWechatBrowser(userAgent) && config.WX_ENABLED && config.WX_APP_ID) {
    return { kind: 'wechat-authorize', url: wechatAuthorizeUrl(config.WX_APP_ID, `${origin}${WX_CALLBACK_PATH}`, state) }
  }
  if (config.MOBILE_ENABLED && !user.mobile && pathname !== BIND_MOBILE_PATH) return { kind: 'bind-mobile' }
  return { kind: 'none' }
}

/** The WeChat web OAuth authorize page (scope snsapi_userinfo), PROTOCOLS.md B 1.7. */
export function wechatAuthorizeUrl(appId: string, redirectUri: string, state: string): string {
  const query = new URLSearchParams({
    appid: appId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'snsapi_userinfo',
    state,
  })
  return `https://open.weixin.qq.com/connect/oauth2/authorize?${query.toString()}#wechat_redirect`
}

/** The WeChat callback page (docs/PRODUCT.md §2.2). */
export const WX_CALLBACK_PATH = '/wx_auth'

/**
 * The 公众号 web authorization page (docs/PROTOCOLS.md §5.1): the parameters in the
 * documented order and the #wechat_redirect fragment, both of which WeChat insists on.
 */
export function wechatAuthorizeUrl(openBase: string, appId: string, redirectUri: string, state: string): string {
  const query = new URLSearchParams({ appid: appId, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_userinfo', state })
  return `${new URL('/connect/oauth2/authorize', openBase)}?${query}#wechat_redirect`
}

/** The Open Platform website-app QR login page (scope snsapi_login), for desktop browsers. */
export function wechatQrConnectUrl(openBase: string, appId: string, redirectUri: string, state: string): string {
  const query = new URLSearchParams({ appid: appId, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_login', state })
  return `${new URL('/connect/qrconnect', openBase)}?${query}#wechat_redirect`
}

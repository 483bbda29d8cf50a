import { describe, expect, it } from 'vitest'
import { WX_CALLBACK_PATH, wechatAuthorizeUrl, wechatQrConnectUrl } from '@/lib/auth/wechat/authorize-url'

/** docs/PROTOCOLS.md §5.1: WeChat wants its parameters in the documented order and the #wechat_redirect fragment. */
function parse(url: string) {
  const query = url.slice(url.indexOf('?') + 1, url.indexOf('#'))
  const pairs = query.split('&').map((p) => p.split('='))
  return { keys: pairs.map(([k]) => k), values: Object.fromEntries(pairs) as Record<string, string> }
}

describe('wechatAuthorizeUrl (公众号网页授权)', () => {
  it('builds the exact documented URL against the configured host', () => {
    expect(WX_CALLBACK_PATH).toBe('/wx_auth')
    expect(wechatAuthorizeUrl('https://open.weixin.qq.com', 'wxAPP', 'http://localhost:3000/wx_auth', 'xyz')).toBe(
      'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wxAPP&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fwx_auth&response_type=code&scope=snsapi_userinfo&state=xyz#wechat_redirect',
    )
    expect(wechatAuthorizeUrl('http://127.0.0.1:4100', 'wxAPP', 'http://a/wx_auth', 's')).toMatch(/^http:\/\/127\.0\.0\.1:4100\/connect\/oauth2\/authorize\?/)
  })

  it('keeps appid, redirect_uri, response_type, scope, state in that order and encodes the callback', () => {
    const url = wechatAuthorizeUrl('https://open.weixin.qq.com', 'wx1234567890abcdef', 'https://ai.example.com:8443/wx_auth', 'abc123')
    const { keys, values } = parse(url)
    expect(keys).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state'])
    expect(values.redirect_uri).toBe('https%3A%2F%2Fai.example.com%3A8443%2Fwx_auth')
    expect(new URL(url).hash).toBe('#wechat_redirect')
  })
})

describe('wechatQrConnectUrl (开放平台网站应用扫码登录)', () => {
  it('uses /connect/qrconnect with scope snsapi_login in the documented order', () => {
    const url = wechatQrConnectUrl('https://open.weixin.qq.com', 'wxOPEN', 'https://ai.example.com/wx_auth', 'st')
    expect(url).toBe(
      'https://open.weixin.qq.com/connect/qrconnect?appid=wxOPEN&redirect_uri=https%3A%2F%2Fai.example.com%2Fwx_auth&response_type=code&scope=snsapi_login&state=st#wechat_redirect',
    )
    expect(parse(url).keys).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state'])
  })
})

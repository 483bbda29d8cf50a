import { describe, expect, it } from 'vitest'
import {
  BIND_MOBILE_PATH,
  WX_CALLBACK_PATH,
  decideStartAction,
  isWechatBrowser,
  wechatAuthorizeUrl,
  type StartConfig,
  type StartUser,
} from '@/lib/app-start/rules'

/** SPEC section 4 "After user info loads". */
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN'
const ANDROID_WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; V2055A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64'
const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

const user = (over: { mobile?: string | null; hasOpenId?: boolean } = {}): StartUser => ({
  mobile: over.mobile === undefined ? '13800000000' : over.mobile,
  oauth: { hasOpenId: over.hasOpenId ?? false },
})
const config = (over: Partial<StartConfig> = {}): StartConfig => ({
  WX_ENABLED: true,
  WX_APP_ID: 'wx1234567890abcdef',
  MOBILE_ENABLED: false,
  ...over,
})
const input = (over: Partial<Parameters<typeof decideStartAction>[0]> = {}) => ({
  user: user(),
  config: config(),
  userAgent: WECHAT_UA,
  pathname: '/',
  origin: 'https://ai.example.com',
  state: 'st-123',
  ...over,
})

describe('isWechatBrowser', () => {
  it('detects the WeChat in-app browser', () => {
    expect(isWechatBrowser(WECHAT_UA)).toBe(true)
    expect(isWechatBrowser(ANDROID_WECHAT_UA)).toBe(true)
    expect(isWechatBrowser('micromessenger')).toBe(true)
  })
  it('is false elsewhere', () => {
    expect(isWechatBrowser(CHROME_UA)).toBe(false)
    expect(isWechatBrowser('')).toBe(false)
  })
})

describe('WeChat authorize', () => {
  it('happens with no openid, inside WeChat, WX enabled and an app id', () => {
    const action = decideStartAction(input())
    expect(action.kind).toBe('wechat-authorize')
  })

  it('takes priority over binding a mobile', () => {
    const action = decideStartAction(input({ user: user({ mobile: null }), config: config({ MOBILE_ENABLED: true }) }))
    expect(action.kind).toBe('wechat-authorize')
  })

  it.each([
    ['the user has an openid', { user: user({ hasOpenId: true }) }],
    ['outside WeChat', { userAgent: CHROME_UA }],
    ['WX disabled', { config: config({ WX_ENABLED: false }) }],
    ['no app id', { config: config({ WX_APP_ID: '' }) }],
  ])('does not happen when %s', (_name, over) => {
    expect(decideStartAction(input(over))).toEqual({ kind: 'none' })
  })

  it('the URL carries appid, redirect_uri, response_type, scope, state in that order and ends with #wechat_redirect', () => {
    const action = decideStartAction(input({ origin: 'https://ai.example.com:8443', state: 'a b/c' }))
    if (action.kind !== 'wechat-authorize') throw new Error(`expected wechat-authorize, got ${action.kind}`)
    const { url } = action
    expect(url.endsWith('#wechat_redirect')).toBe(true)
    expect(url.startsWith('https://open.weixin.qq.com/connect/oauth2/authorize?')).toBe(true)

    const query = url.slice(url.indexOf('?') + 1, url.indexOf('#'))
    const pairs = query.split('&').map((p) => p.split('='))
    expect(pairs.map(([k]) => k)).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state'])
    const values = Object.fromEntries(pairs)
    expect(values.appid).toBe('wx1234567890abcdef')
    expect(values.redirect_uri).toBe(encodeURIComponent('https://ai.example.com:8443/wx_auth'))
    expect(values.redirect_uri).toBe('https%3A%2F%2Fai.example.com%3A8443%2Fwx_auth')
    expect(values.response_type).toBe('code')
    expect(values.scope).toBe('snsapi_userinfo')
    expect(new URLSearchParams(`state=${values.state}`).get('state')).toBe('a b/c')

    const parsed = new URL(url)
    expect(parsed.hash).toBe('#wechat_redirect')
    expect(parsed.searchParams.get('redirect_uri')).toBe(`https://ai.example.com:8443${WX_CALLBACK_PATH}`)
  })

  it('wechatAuthorizeUrl builds the exact documented URL', () => {
    expect(WX_CALLBACK_PATH).toBe('/wx_auth')
    expect(wechatAuthorizeUrl('wxAPP', 'http://localhost:3000/wx_auth', 'xyz')).toBe(
      'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wxAPP&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fwx_auth&response_type=code&scope=snsapi_userinfo&state=xyz#wechat_redirect',
    )
  })
})

describe('bind mobile', () => {
  const needsMobile = { user: user({ mobile: null, hasOpenId: true }), config: config({ MOBILE_ENABLED: true }) }

  it('when mobile binding is enabled, the user has no mobile and is not on /bind_mobile', () => {
    expect(BIND_MOBILE_PATH).toBe('/bind_mobile')
    expect(decideStartAction(input({ ...needsMobile, pathname: '/text2img' }))).toEqual({ kind: 'bind-mobile' })
  })

  it('also outside WeChat, and when WeChat authorize is not possible', () => {
    expect(decideStartAction(input({ ...needsMobile, userAgent: CHROME_UA }))).toEqual({ kind: 'bind-mobile' })
    expect(
      decideStartAction(input({ user: user({ mobile: null }), config: config({ MOBILE_ENABLED: true, WX_ENABLED: false }) })),
    ).toEqual({ kind: 'bind-mobile' })
    expect(
      decideStartAction(input({ user: user({ mobile: '' }), config: config({ MOBILE_ENABLED: true, WX_APP_ID: '' }) })),
    ).toEqual({ kind: 'bind-mobile' })
  })

  it.each([
    ['already on /bind_mobile', { ...needsMobile, pathname: '/bind_mobile' }],
    ['mobile binding disabled', { ...needsMobile, config: config({ MOBILE_ENABLED: false }) }],
    ['the user has a mobile', { ...needsMobile, user: user({ mobile: '13900000000', hasOpenId: true }) }],
  ])('not when %s', (_name, over) => {
    expect(decideStartAction(input(over))).toEqual({ kind: 'none' })
  })
})

describe('exhaustive table', () => {
  it('matches SPEC section 4 for every combination', () => {
    for (const hasOpenId of [true, false])
      for (const inWechat of [true, false])
        for (const WX_ENABLED of [true, false])
          for (const WX_APP_ID of ['wxid', ''])
            for (const MOBILE_ENABLED of [true, false])
              for (const mobile of ['13800000000', null])
                for (const pathname of ['/', '/bind_mobile']) {
                  const action = decideStartAction(
                    input({
                      user: user({ mobile, hasOpenId }),
                      config: { WX_ENABLED, WX_APP_ID, MOBILE_ENABLED },
                      userAgent: inWechat ? WECHAT_UA : CHROME_UA,
                      pathname,
                    }),
                  )
                  const expected =
                    !hasOpenId && inWechat && WX_ENABLED && WX_APP_ID
                      ? 'wechat-authorize'
                      : MOBILE_ENABLED && !mobile && pathname !== '/bind_mobile'
                        ? 'bind-mobile'
                        : 'none'
                  expect(action.kind, JSON.stringify({ hasOpenId, inWechat, WX_ENABLED, WX_APP_ID, MOBILE_ENABLED, mobile, pathname })).toBe(
                    expected,
                  )
                }
  })
})

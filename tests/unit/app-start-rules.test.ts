import { describe, expect, it } from 'vitest'
import {
  BIND_MOBILE_PATH,
  WECHAT_AUTHORIZE_ENDPOINT,
  WX_CALLBACK_PATH,
  decideStartAction,
  isWechatBrowser,
  type StartConfig,
  type StartUser,
} from '@/lib/app-start/rules'

/** docs/PRODUCT.md §4.5 "After the user info loads". */
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN'
const ANDROID_WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; V2055A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64'
const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

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
  search: '',
  wechatDeclined: false,
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
  it('happens with no openid, inside WeChat, WX enabled and an app id, through the server endpoint', () => {
    expect(decideStartAction(input({ pathname: '/text2img', search: '?mode=mj' }))).toEqual({
      kind: 'wechat-authorize',
      endpoint: '/api/auth/wechat/authorize',
      body: { purpose: 'bind', returnPath: '/text2img?mode=mj' },
    })
    expect(WECHAT_AUTHORIZE_ENDPOINT).toBe('/api/auth/wechat/authorize')
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
    ['it was declined or impossible earlier in this session', { wechatDeclined: true }],
    ['on the callback page, which is finishing an authorization', { pathname: WX_CALLBACK_PATH }],
  ])('does not happen when %s', (_name, over) => {
    expect(decideStartAction(input(over))).toEqual({ kind: 'none' })
  })

  it('after a declined authorization, the mobile rule still applies', () => {
    expect(decideStartAction(input({ user: user({ mobile: null }), config: config({ MOBILE_ENABLED: true }), wechatDeclined: true }))).toEqual({
      kind: 'bind-mobile',
      href: '/bind_mobile?redirect=%2F',
    })
  })
})

describe('bind mobile', () => {
  const needsMobile = { user: user({ mobile: null, hasOpenId: true }), config: config({ MOBILE_ENABLED: true }) }

  it('when mobile binding is enabled, the user has no mobile and is not on /bind_mobile; comes back afterwards', () => {
    expect(BIND_MOBILE_PATH).toBe('/bind_mobile')
    expect(decideStartAction(input({ ...needsMobile, pathname: '/text2img', search: '?a=1&b=2' }))).toEqual({
      kind: 'bind-mobile',
      href: '/bind_mobile?redirect=%2Ftext2img%3Fa%3D1%26b%3D2',
    })
  })

  it('leaves staff in the console (a broken SMS setup must not lock them out of the switch), and no one else', () => {
    const staff = (role: 'ADMIN' | 'MANAGER' | 'USER') => ({ ...needsMobile, user: { ...needsMobile.user, role }, userAgent: CHROME_UA })
    for (const role of ['ADMIN', 'MANAGER'] as const) {
      expect(decideStartAction(input({ ...staff(role), pathname: '/admin/site_config' })).kind).toBe('none')
      expect(decideStartAction(input({ ...staff(role), pathname: '/admin' })).kind).toBe('none')
      // The rest of the site asks them to bind like anyone.
      expect(decideStartAction(input({ ...staff(role), pathname: '/text2img' })).kind).toBe('bind-mobile')
      expect(decideStartAction(input({ ...staff(role), pathname: '/administrator' })).kind).toBe('bind-mobile')
    }
    expect(decideStartAction(input({ ...staff('USER'), pathname: '/admin/site_config' })).kind).toBe('bind-mobile')
  })

  it('also outside WeChat, and when WeChat authorize is not possible', () => {
    expect(decideStartAction(input({ ...needsMobile, userAgent: CHROME_UA })).kind).toBe('bind-mobile')
    expect(decideStartAction(input({ user: user({ mobile: null }), config: config({ MOBILE_ENABLED: true, WX_ENABLED: false }) })).kind).toBe('bind-mobile')
    expect(decideStartAction(input({ user: user({ mobile: '' }), config: config({ MOBILE_ENABLED: true, WX_APP_ID: '' }) })).kind).toBe('bind-mobile')
  })

  it.each([
    ['already on /bind_mobile (no loop)', { ...needsMobile, pathname: '/bind_mobile', search: '?redirect=%2F' }],
    ['on the WeChat callback page', { ...needsMobile, pathname: '/wx_auth' }],
    ['mobile binding disabled', { ...needsMobile, config: config({ MOBILE_ENABLED: false }) }],
    ['the user has a mobile', { ...needsMobile, user: user({ mobile: '13900000000', hasOpenId: true }) }],
  ])('not when %s', (_name, over) => {
    expect(decideStartAction(input(over))).toEqual({ kind: 'none' })
  })
})

describe('exhaustive table', () => {
  it('matches docs/PRODUCT.md §4.5 for every combination', () => {
    for (const hasOpenId of [true, false])
      for (const inWechat of [true, false])
        for (const WX_ENABLED of [true, false])
          for (const WX_APP_ID of ['wxid', ''])
            for (const MOBILE_ENABLED of [true, false])
              for (const mobile of ['13800000000', null])
                for (const pathname of ['/', '/bind_mobile', '/wx_auth'])
                  for (const wechatDeclined of [true, false]) {
                    const action = decideStartAction(
                      input({
                        user: user({ mobile, hasOpenId }),
                        config: { WX_ENABLED, WX_APP_ID, MOBILE_ENABLED },
                        userAgent: inWechat ? WECHAT_UA : CHROME_UA,
                        pathname,
                        wechatDeclined,
                      }),
                    )
                    const expected =
                      pathname === '/wx_auth'
                        ? 'none'
                        : !hasOpenId && inWechat && WX_ENABLED && WX_APP_ID && !wechatDeclined
                          ? 'wechat-authorize'
                          : MOBILE_ENABLED && !mobile && pathname !== '/bind_mobile'
                            ? 'bind-mobile'
                            : 'none'
                    expect(action.kind, JSON.stringify({ hasOpenId, inWechat, WX_ENABLED, WX_APP_ID, MOBILE_ENABLED, mobile, pathname, wechatDeclined })).toBe(
                      expected,
                    )
                  }
  })
})

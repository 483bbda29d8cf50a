import { describe, expect, it, vi } from 'vitest'
import { wechatError } from '@/lib/auth/wechat/wechat-api'
import { needsPublicUrl } from '@/lib/auth/wechat/wechat-config'

describe('wechatError', () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})

  it('on /sns/userinfo, 40001 is the user’s expired or replaced web token: try again, nothing about the AppSecret', () => {
    for (const errcode of [40001, 40014, 42001]) {
      const error = wechatError(errcode, 'invalid credential, access_token is invalid or not latest', '/sns/userinfo')
      expect(error.status).toBe(400)
      expect(error.message).toBe('微信授权已失效，请重新发起微信登录')
      expect(error.message).not.toContain('AppSecret')
    }
  })

  it('when trading the code, a wrong AppID or AppSecret is the operator’s configuration problem', () => {
    for (const errcode of [40013, 40125, 40001, 41004]) {
      const error = wechatError(errcode, 'invalid appsecret', '/sns/oauth2/access_token')
      expect(error.status).toBe(503)
      expect(error.message).toBe('微信登录配置有误（AppID 或 AppSecret 不正确），请联系管理员')
    }
  })

  it('a used or bad code asks the user to start again, on either call', () => {
    expect(wechatError(40163, 'code been used', '/sns/oauth2/access_token').message).toBe('微信授权码无效或已使用，请重新发起微信登录')
  })
})

describe('needsPublicUrl', () => {
  it('only a production site without PUBLIC_URL', () => {
    expect(needsPublicUrl({ NODE_ENV: 'production', PUBLIC_URL: undefined })).toBe(true)
    expect(needsPublicUrl({ NODE_ENV: 'production', PUBLIC_URL: 'https://ai.example.com' })).toBe(false)
    expect(needsPublicUrl({ NODE_ENV: 'development', PUBLIC_URL: undefined })).toBe(false)
    expect(needsPublicUrl({ NODE_ENV: 'test', PUBLIC_URL: undefined })).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { isLogProviderAllowed } from '@/lib/site-config/sms-readiness'
import { WECHAT_MESSAGES, wechatMessageKey } from '@/lib/auth/wechat/messages'
import { avatarFromWechat, nameFromNickname } from '@/lib/auth/wechat/wechat-identity'
import { generatedUsername } from '@/lib/users/generated-username'
import { ZMobileSchema, ZUsernameSchema } from '@/lib/users/schemas'
import { first } from '../helpers/present'

describe('the log SMS provider', () => {
  it('is allowed in development, in tests and for the embedded default; refused in a production deployment', () => {
    expect(isLogProviderAllowed({ NODE_ENV: 'development', EMBEDDED_DATABASE: false })).toBe(true)
    expect(isLogProviderAllowed({ NODE_ENV: 'test', EMBEDDED_DATABASE: false })).toBe(true)
    expect(isLogProviderAllowed({ NODE_ENV: 'production', EMBEDDED_DATABASE: true })).toBe(true)
    expect(isLogProviderAllowed({ NODE_ENV: 'production', EMBEDDED_DATABASE: false })).toBe(false)
  })
})

describe('ZMobileSchema', () => {
  it('accepts mainland numbers, dropping spaces, dashes and +86', () => {
    expect(ZMobileSchema.parse('13800138000')).toBe('13800138000')
    expect(ZMobileSchema.parse(' 138 0013 8000 ')).toBe('13800138000')
    expect(ZMobileSchema.parse('+86 138-0013-8000')).toBe('13800138000')
    expect(ZMobileSchema.parse('008619912345678')).toBe('19912345678')
  })
  it.each(['1380013800', '138001380001', '23800138000', '12800138000', '+85291234567', '1380013800a', ''])('refuses %j with the mainland message', (value) => {
    const result = ZMobileSchema.safeParse(value)
    expect(result.success).toBe(false)
    expect(first(result.error!.issues).message).toBe('请输入 11 位中国大陆手机号')
  })
})

describe('generated usernames', () => {
  it('are valid usernames with their prefix', () => {
    for (const prefix of ['wx', 'u'] as const) {
      const name = generatedUsername(prefix)
      expect(name).toMatch(new RegExp(`^${prefix}_[a-z0-9]{10}$`))
      expect(ZUsernameSchema.parse(name)).toBe(name)
    }
    expect(new Set(Array.from({ length: 200 }, () => generatedUsername('wx'))).size).toBe(200)
  })
})

describe('WeChat profile data', () => {
  it('names come from the nickname, trimmed to 32 characters, else 微信用户', () => {
    expect(nameFromNickname(' 小画家 ')).toBe('小画家')
    expect(nameFromNickname('')).toBe('微信用户')
    expect(nameFromNickname(undefined)).toBe('微信用户')
    expect(nameFromNickname('🎨'.repeat(40))).toBe('🎨'.repeat(32))
  })
  it('avatars are plain http(s) addresses only', () => {
    expect(avatarFromWechat('https://thirdwx.qlogo.cn/mmopen/vi_32/abc/132')).toBe('https://thirdwx.qlogo.cn/mmopen/vi_32/abc/132')
    expect(avatarFromWechat('')).toBeNull()
    expect(avatarFromWechat('javascript:alert(1)')).toBeNull()
    expect(avatarFromWechat('https://x/"onerror="alert(1)')).toBeNull()
    expect(avatarFromWechat(`https://x/${'a'.repeat(600)}`)).toBeNull()
  })
})

describe('authorize link failures', () => {
  it('map known messages to their key and anything else to failed', () => {
    expect(wechatMessageKey(WECHAT_MESSAGES['ticket-expired'], 400)).toBe('ticket-expired')
    expect(wechatMessageKey(WECHAT_MESSAGES.disabled, 403)).toBe('disabled')
    expect(wechatMessageKey('微信授权请求过于频繁，请 3 分钟 后再试', 429)).toBe('throttled')
    expect(wechatMessageKey('something else', 500)).toBe('failed')
  })
})

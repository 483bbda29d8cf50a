import { describe, expect, it } from 'vitest'
import type { ConfigItemView } from '@/components/admin/site-config/site-config-editor'
import { settingLookup, switchWarning } from '@/components/admin/site-config/switch-warnings'

const item = (name: string, type: ConfigItemView['type'], value: ConfigItemView['value'], isSet = value !== '' && value !== false): ConfigItemView => ({
  name,
  group: '短信',
  label: name,
  help: null,
  type,
  visibility: name.endsWith('SECRET') ? 'secret' : 'admin',
  value,
  isSet,
})

/** The console warns next to a switch that is on while what it needs is missing. */
describe('switchWarning', () => {
  const trial = [
    item('SMS_PROVIDER', 'string', 'log'),
    item('SMS_LOGIN_ENABLED', 'boolean', false),
    item('MOBILE_ENABLED', 'boolean', false),
    item('WX_ENABLED', 'boolean', false),
    item('WX_APP_ID', 'string', ''),
    item('WX_APP_SECRET', 'string', '', false),
  ]
  const warn = (name: string, edits: Record<string, string | boolean> = {}, all = trial) => {
    const lookup = settingLookup(all, edits)
    return switchWarning(name, lookup.valueOf, lookup.isSet)
  }

  it('says nothing about switches that are off', () => {
    for (const name of ['SMS_LOGIN_ENABLED', 'MOBILE_ENABLED', 'WX_ENABLED']) expect(warn(name)).toBeNull()
  })

  it('warns when SMS sign-in or phone binding is switched on with the log provider', () => {
    expect(warn('SMS_LOGIN_ENABLED', { SMS_LOGIN_ENABLED: true })).toMatch(/^短信服务商是 log：验证码只写入服务器日志，用户收不到短信/)
    expect(warn('MOBILE_ENABLED', { MOBILE_ENABLED: true })).toMatch(/^短信服务商是 log/)
    // Choosing a real provider in the same form (not saved yet) ends the warning.
    expect(warn('SMS_LOGIN_ENABLED', { SMS_LOGIN_ENABLED: true, SMS_PROVIDER: 'aliyun' })).toBeNull()
  })

  it('warns when WeChat login is on without an AppID (or AppSecret), naming what is missing', () => {
    expect(warn('WX_ENABLED', { WX_ENABLED: true })).toBe(
      '还没有填写公众号 AppID和公众号 AppSecret：开启后微信登录仍不可用，用户会看到“未完成配置”。请先填写下方的公众号 AppID和公众号 AppSecret。',
    )
    expect(warn('WX_ENABLED', { WX_ENABLED: true, WX_APP_SECRET: 'a'.repeat(32) })).toMatch(/^还没有填写公众号 AppID：/)
    expect(warn('WX_ENABLED', { WX_ENABLED: true, WX_APP_ID: 'wx0123456789abcdef', WX_APP_SECRET: 'a'.repeat(32) })).toBeNull()
  })

  it('does not claim a secret it cannot see is missing (a MANAGER gets no secrets)', () => {
    const manager = trial.filter((i) => i.name !== 'WX_APP_SECRET')
    expect(warn('WX_ENABLED', { WX_ENABLED: true, WX_APP_ID: 'wx0123456789abcdef' }, manager)).toBeNull()
  })
})

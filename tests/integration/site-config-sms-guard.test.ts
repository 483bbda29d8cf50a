// With MOBILE_ENABLED or SMS_LOGIN_ENABLED on, users depend on SMS: the settings cannot be
// saved into a state where no code can be sent (the log provider in a production deployment,
// a provider's settings left empty), which would send every user without a phone, the admin
// included, to a /bind_mobile they cannot complete.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as siteInfo from '@/app/api/site-config/site-info/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { db } from '@/lib/db'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure } from '../helpers/sign-in'
import { ALIYUN, TENCENT } from '../helpers/sms'

// A production deployment on its own PostgreSQL, where the log provider is refused (read once by lib/env.ts).
vi.stubEnv('NODE_ENV', 'production')
vi.stubEnv('EMBEDDED_DATABASE', 'false')

let admin: Awaited<ReturnType<typeof createUser>>
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
})
afterAll(() => {
  vi.unstubAllEnvs()
})

const patch = (name: string, value: unknown) => callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name }, body: { value } })
const stored = async (name: string) => (await db().siteConfig.findUnique({ where: { name } }))?.value ?? null
const publicConfig = async () => expectOk(await callRoute(siteInfo.GET)).config

const aliyunKeys = {
  ALIYUN_ACCESS_KEY_ID: ALIYUN.accessKeyId,
  ALIYUN_ACCESS_KEY_SECRET: ALIYUN.accessKeySecret,
  ALIYUN_SMS_SIGN_NAME: ALIYUN.signName,
  ALIYUN_SMS_TEMPLATE_CODE: ALIYUN.templateCode,
}
const tencentKeys = {
  TENCENT_SECRET_ID: TENCENT.secretId,
  TENCENT_SECRET_KEY: TENCENT.secretKey,
  TENCENT_SMS_SDK_APP_ID: TENCENT.sdkAppId,
  TENCENT_SMS_SIGN_NAME: TENCENT.signName,
  TENCENT_SMS_TEMPLATE_ID: TENCENT.templateId,
}

describe('turning on what depends on SMS', () => {
  it('is refused while the provider is log in production, saying why, and nothing is stored', async () => {
    const audits = await db().adminAuditLog.count()
    expectFail(await patch('MOBILE_ENABLED', true), 400, /^无法开启“要求绑定手机号”：短信服务商是 log（验证码只写入服务器日志），生产部署中不可用/)
    expectFail(await patch('SMS_LOGIN_ENABLED', true), 400, /^无法开启“启用手机验证码登录”：短信服务商是 log/)
    expect(await stored('MOBILE_ENABLED')).toBeNull()
    expect(await stored('SMS_LOGIN_ENABLED')).toBeNull()
    expect(await db().adminAuditLog.count()).toBe(audits)
    expect(await publicConfig()).toMatchObject({ MOBILE_ENABLED: false, SMS_LOGIN_ENABLED: false })
  })

  it('is refused while the chosen provider lacks settings, naming each missing one', async () => {
    expectOk(await patch('SMS_PROVIDER', 'aliyun'))
    expectOk(await patch('ALIYUN_ACCESS_KEY_ID', ALIYUN.accessKeyId))
    expectFail(
      await patch('MOBILE_ENABLED', true),
      400,
      '无法开启“要求绑定手机号”：阿里云短信的配置不完整，缺少 “阿里云 AccessKey Secret”、“阿里云短信签名”、“阿里云短信模板 CODE”',
    )
    expect(await stored('MOBILE_ENABLED')).toBeNull()
  })

  it('is allowed once the provider can send', async () => {
    await configure(admin.token, aliyunKeys)
    expectOk(await patch('MOBILE_ENABLED', true))
    expectOk(await patch('SMS_LOGIN_ENABLED', true))
    expect(await publicConfig()).toMatchObject({ MOBILE_ENABLED: true, SMS_LOGIN_ENABLED: true })
  })
})

describe('while users depend on SMS', () => {
  it('the provider cannot be switched to log or to one without its settings, nor a needed setting cleared', async () => {
    expectFail(await patch('SMS_PROVIDER', 'log'), 400, /^“要求绑定手机号”和“启用手机验证码登录”已开启，短信服务必须保持可用.*短信服务商是 log/)
    expectFail(await patch('SMS_PROVIDER', 'tencent'), 400, /腾讯云短信的配置不完整，缺少 “腾讯云 SecretId”、“腾讯云 SecretKey”/)
    expectFail(await patch('ALIYUN_SMS_SIGN_NAME', ''), 400, /阿里云短信的配置不完整，缺少 “阿里云短信签名”/)
    expectFail(await patch('ALIYUN_ACCESS_KEY_SECRET', '  '), 400, /缺少 “阿里云 AccessKey Secret”/)
    expect(JSON.parse((await stored('SMS_PROVIDER'))!)).toBe('aliyun')
    expect(JSON.parse((await stored('ALIYUN_SMS_SIGN_NAME'))!)).toBe(ALIYUN.signName)
  })

  it('settings of the provider not in use can change, and a fully set-up provider can be chosen', async () => {
    expectOk(await patch('TENCENT_SECRET_ID', ''))
    await configure(admin.token, tencentKeys)
    expectOk(await patch('SMS_PROVIDER', 'tencent'))
    expectOk(await patch('ALIYUN_SMS_SIGN_NAME', ''))
  })

  it('the switches can always be turned off, and then the provider is free to change', async () => {
    expectOk(await patch('MOBILE_ENABLED', false))
    expectOk(await patch('SMS_LOGIN_ENABLED', false))
    expectOk(await patch('SMS_PROVIDER', 'log'))
  })
})

describe('a setup that broke by other means (say the site moved to production with the log provider)', () => {
  it('reads as SMS off to browsers, so nobody is sent to a binding they cannot finish, and can be repaired step by step', async () => {
    await db().siteConfig.upsert({ where: { name: 'MOBILE_ENABLED' }, create: { name: 'MOBILE_ENABLED', value: 'true' }, update: { value: 'true' } })
    invalidateConfigCache()
    expect(await publicConfig()).toMatchObject({ MOBILE_ENABLED: false, SMS_LOGIN_ENABLED: false })

    // Already broken: each step of the repair is allowed although SMS is not usable yet.
    expectOk(await patch('SMS_PROVIDER', 'aliyun'))
    expectOk(await patch('ALIYUN_SMS_SIGN_NAME', ALIYUN.signName))
    expect(await publicConfig()).toMatchObject({ MOBILE_ENABLED: true })
  })
})

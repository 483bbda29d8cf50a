// The `log` SMS provider in a production deployment (NODE_ENV=production, no embedded
// database): refused with a clear message, nothing counted or stored. The console refuses to
// turn SMS sign-in on in that state (site-config-sms-guard.test.ts), so it is written directly,
// as a site that moved to production with these settings would have it.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { expectFail } from '../helpers/expect-response'
import { freshMobile, sendCode } from '../helpers/sms'

// Read once by lib/env.ts, before anything in this file asks for it.
vi.stubEnv('NODE_ENV', 'production')
vi.stubEnv('EMBEDDED_DATABASE', 'false')

beforeAll(async () => {
  await db().siteConfig.createMany({
    data: [
      { name: 'SMS_LOGIN_ENABLED', value: 'true' },
      { name: 'SMS_PROVIDER', value: '"log"' },
    ],
  })
  invalidateConfigCache()
})
afterAll(() => {
  vi.unstubAllEnvs()
})

it('refuses to send, says why, and writes no code to the log', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const mobile = freshMobile()
    expectFail(await sendCode(mobile), 503, /log 方式只把验证码写入服务器日志，仅供试用和开发，生产部署中不可用/)
    expect(log.mock.calls.some((c) => String(c[0]).startsWith('SMS to'))).toBe(false)
    expect(warn.mock.calls.some((c) => String(c[0]).includes('refused'))).toBe(true)
    expect(await db().smsCode.count()).toBe(0)
    expect(await db().rateLimitCounter.count({ where: { key: { startsWith: 'sms:' } } })).toBe(0)
  } finally {
    log.mockRestore()
    warn.mockRestore()
  }
})

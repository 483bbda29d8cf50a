// The site-wide daily SMS limit (SMS_DAILY_LIMIT): a ceiling on what SMS pumping can cost,
// checked before anything is sent, with a clear message; refused sends count against nothing.
import { beforeAll, expect, it, vi } from 'vitest'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { db } from '@/lib/db'
import { findDefinition } from '@/lib/site-config/registry'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure } from '../helpers/sign-in'
import { freshIp, freshMobile, sendCode } from '../helpers/sms'

let admin: Awaited<ReturnType<typeof createUser>>
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
  await configure(admin.token, { SMS_LOGIN_ENABLED: true, SMS_PROVIDER: 'log' })
})

it('is a console setting of the SMS group, 1000 a day unless changed, validated', async () => {
  expect(findDefinition('SMS_DAILY_LIMIT')).toMatchObject({ group: '短信', type: 'integer', visibility: 'admin', defaultValue: 1000 })
  for (const bad of [0, -1, 1.5, '10']) {
    expectFail(
      await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name: 'SMS_DAILY_LIMIT' }, body: { value: bad } }),
      400,
      /^全站每日短信发送上限：/,
    )
  }
})

it('refuses every send past the limit, whoever asks, and stores, sends and counts nothing for it', async () => {
  await configure(admin.token, { SMS_DAILY_LIMIT: 3 })
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    for (let i = 0; i < 3; i++) expectOk(await sendCode(freshMobile(), 'login', { ip: freshIp() }))
    const mobile = freshMobile()
    const ip = freshIp()
    expectFail(await sendCode(mobile, 'login', { ip }), 429, '今日短信发送量已达本站上限，请明天再试或联系管理员')
    const user = await createUser()
    expectFail(await sendCode(freshMobile(), 'bind', { token: user.token, ip: freshIp() }), 429, '今日短信发送量已达本站上限，请明天再试或联系管理员')

    expect(log.mock.calls.filter((c) => String(c[0]).startsWith('SMS to'))).toHaveLength(3)
    expect(warn.mock.calls.some((c) => String(c[0]).includes('daily limit of 3'))).toBe(true)
    expect(await db().smsCode.count()).toBe(3)
    // The refused send did not use up the phone's or the address's allowance.
    const counters = await db().rateLimitCounter.findMany({ where: { key: { in: [`sms:phone:60s:${mobile}`, `sms:ip:day:${ip}`] } } })
    expect(counters.every((c) => c.count === 0)).toBe(true)

    // Raising the limit lets sending go on at once.
    await configure(admin.token, { SMS_DAILY_LIMIT: 4 })
    expectOk(await sendCode(mobile, 'login', { ip }))
    expectFail(await sendCode(freshMobile(), 'login', { ip: freshIp() }), 429, /本站上限/)
  } finally {
    log.mockRestore()
    warn.mockRestore()
  }
})

// POST /api/users/bind_mobile: a phone is bound to the signed-in user with a 'bind' code;
// a phone that belongs to another account is refused, never merged (docs/PROTOCOLS.md §8.4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as bind from '@/app/api/users/bind_mobile/route'
import * as profile from '@/app/api/users/profile/route'
import { SMS_VERIFY_IP_LIMIT } from '@/lib/auth/sms/verify-code'
import { db } from '@/lib/db'
import { startFakeTencentSms } from '../fakes/sms-tencent'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure } from '../helpers/sign-in'
import { TENCENT, endWindows, freshIp, freshMobile, sendCode, tencentSettings, wrongCode } from '../helpers/sms'
import { at } from '../helpers/present'
import { tokenSignedInAgo } from '../helpers/old-session'

let tencent: Awaited<ReturnType<typeof startFakeTencentSms>>
const TAKEN = '该手机号已绑定其他账号，不能重复绑定'
const OLD_SESSION = '为了账号安全，请重新登录后 10 分钟内绑定手机号'
const bindWith = (token: string | undefined, mobile: string, code: string) => callRoute(bind.POST, { body: { mobile, code }, token, ip: freshIp() })

beforeAll(async () => {
  tencent = await startFakeTencentSms(TENCENT)
  process.env.TENCENT_SMS_ENDPOINT = tencent.url
  const admin = await createUser({ role: 'ADMIN' })
  // Binding works whether or not SMS sign-in is offered.
  await configure(admin.token, { SMS_LOGIN_ENABLED: false, ...tencentSettings() })
})
afterAll(async () => {
  await tencent.close()
})

describe('binding a phone', () => {
  it('binds the phone to the caller with the code sent for binding', async () => {
    const user = await createUser()
    const mobile = freshMobile()
    expectOk(await sendCode(mobile, 'bind', { token: user.token }))
    const updated = expectOk(await bindWith(user.token, mobile, tencent.lastCode(mobile)!))
    expect(updated).toMatchObject({ id: user.id, mobile })
    expect(expectOk(await callRoute(profile.GET, { token: user.token })).mobile).toBe(mobile)
    expect((await db().smsCode.findFirstOrThrow({ where: { mobile } })).usedAt).not.toBeNull()
  })

  it('needs a recent sign-in: a session signed in 11 minutes ago gets no code and binds nothing', async () => {
    const user = await createUser()
    const older = await tokenSignedInAgo(user, 11)
    const mobile = freshMobile()
    const sentBefore = tencent.sent.length
    expectFail(await sendCode(mobile, 'bind', { token: older }), 403, OLD_SESSION)
    expect(tencent.sent.length).toBe(sentBefore)
    expect(await db().smsCode.count({ where: { mobile } })).toBe(0)

    // A code asked for by a fresh session of the same account does not help the old one.
    const fresh = await tokenSignedInAgo(user, 9)
    expectOk(await sendCode(mobile, 'bind', { token: fresh }))
    const code = tencent.lastCode(mobile)!
    expectFail(await bindWith(older, mobile, code), 403, OLD_SESSION)
    const row = await db().smsCode.findFirstOrThrow({ where: { mobile } })
    expect(row).toMatchObject({ usedAt: null, attempts: 0 })
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).mobile).toBeNull()
    expect(expectOk(await bindWith(fresh, mobile, code))).toMatchObject({ mobile })
  })

  it('needs a signed-in user, for the code and for the binding', async () => {
    const mobile = freshMobile()
    expectFail(await sendCode(mobile, 'bind'), 401)
    expectFail(await bindWith(undefined, mobile, '123456'), 401)
    expect(await db().smsCode.count({ where: { mobile } })).toBe(0)
  })

  it('refuses a phone that belongs to another account: no code is sent and nothing changes', async () => {
    const mobile = freshMobile()
    const owner = await createUser()
    await db().user.update({ where: { id: owner.id }, data: { mobile } })
    const user = await createUser()
    const sentBefore = tencent.sent.length
    expectFail(await sendCode(mobile, 'bind', { token: user.token }), 409, TAKEN)
    expect(tencent.sent.length).toBe(sentBefore)
    // Binding says nothing about the holder without the code: there is none to check.
    expectFail(await bindWith(user.token, mobile, '123456'), 400, '请先获取验证码')
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).mobile).toBeNull()
    expect((await db().user.findUniqueOrThrow({ where: { id: owner.id } })).mobile).toBe(mobile)
  })

  it('refuses when another account took the phone after the code was sent, and keeps the code unused', async () => {
    const mobile = freshMobile()
    const first = await createUser()
    const second = await createUser()
    expectOk(await sendCode(mobile, 'bind', { token: first.token }))
    const firstCode = tencent.lastCode(mobile)!
    await endWindows(`sms:phone:60s:${mobile}`)
    expectOk(await sendCode(mobile, 'bind', { token: second.token }))
    expectOk(await bindWith(second.token, mobile, tencent.lastCode(mobile)!))
    expectFail(await bindWith(first.token, mobile, firstCode), 409, TAKEN)
    expect((await db().user.findUniqueOrThrow({ where: { id: first.id } })).mobile).toBeNull()
    expect(await db().smsCode.findFirstOrThrow({ where: { mobile, userId: first.id } })).toMatchObject({ usedAt: null, attempts: 1 })
  })

  it('two accounts racing for one phone, each with its own code: exactly one gets it', async () => {
    const mobile = freshMobile()
    const users = [await createUser(), await createUser()]
    const codes: string[] = []
    for (const u of users) {
      await endWindows(`sms:phone:60s:${mobile}`)
      expectOk(await sendCode(mobile, 'bind', { token: u.token }))
      codes.push(tencent.lastCode(mobile)!)
    }
    const results = await Promise.all(users.map((u, i) => bindWith(u.token, mobile, at(codes, i))))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(await db().user.count({ where: { mobile } })).toBe(1)
  })

  it('refuses an account that already has a phone', async () => {
    const user = await createUser()
    const mine = freshMobile()
    await db().user.update({ where: { id: user.id }, data: { mobile: mine } })
    expectFail(await sendCode(mine, 'bind', { token: user.token }), 409, '你已绑定该手机号')
    expectFail(await sendCode(freshMobile(), 'bind', { token: user.token }), 409, '你的账号已绑定手机号，如需更换请联系管理员')
  })

  it('a login code does not bind, and a bind code does not sign in', async () => {
    const user = await createUser()
    const mobile = freshMobile()
    expectOk(await sendCode(mobile, 'bind', { token: user.token }))
    const { POST: smsLogin } = await import('@/app/api/auth/sms/login/route')
    const admin = await createUser({ role: 'ADMIN' })
    await configure(admin.token, { SMS_LOGIN_ENABLED: true })
    try {
      expectFail(await callRoute(smsLogin, { body: { mobile, code: tencent.lastCode(mobile)! }, ip: freshIp() }), 400, '请先获取验证码')
    } finally {
      await configure(admin.token, { SMS_LOGIN_ENABLED: false })
    }
  })

  it('wrong codes count against the binding code too', async () => {
    const user = await createUser()
    const mobile = freshMobile()
    expectOk(await sendCode(mobile, 'bind', { token: user.token }))
    const code = tencent.lastCode(mobile)!
    expectFail(await bindWith(user.token, mobile, wrongCode(code)), 400, '验证码错误，还可尝试 4 次')
    expectOk(await bindWith(user.token, mobile, code))
    expectFail(await bindWith(user.token, mobile, code), 409, '你已绑定该手机号')
  })

  it('a bind code belongs to the user who asked for it: another account cannot use it', async () => {
    const asker = await createUser()
    const other = await createUser()
    const mobile = freshMobile()
    expectOk(await sendCode(mobile, 'bind', { token: asker.token }))
    const code = tencent.lastCode(mobile)!
    expect(await db().smsCode.findFirstOrThrow({ where: { mobile } })).toMatchObject({ purpose: 'bind', userId: asker.id })
    expectFail(await bindWith(other.token, mobile, code), 400, '请先获取验证码')
    expect((await db().user.findUniqueOrThrow({ where: { id: other.id } })).mobile).toBeNull()
    // The other account's try did not touch the asker's code.
    expect((await db().smsCode.findFirstOrThrow({ where: { mobile } })).attempts).toBe(0)
    expect(expectOk(await bindWith(asker.token, mobile, code))).toMatchObject({ id: asker.id, mobile })
  })

  it('probing which numbers are registered counts against the user and the address, before anything is said', async () => {
    const holders = await Promise.all(Array.from({ length: 3 }, () => createUser()))
    const registered: string[] = []
    for (const holder of holders) {
      const mobile = freshMobile()
      await db().user.update({ where: { id: holder.id }, data: { mobile } })
      registered.push(mobile)
    }
    const prober = await createUser()
    // Per user: 10 a day, whatever the address.
    for (let i = 0; i < 10; i++) expectFail(await sendCode(at(registered, i % 3), 'bind', { token: prober.token }), 409, TAKEN)
    expectFail(await sendCode(at(registered, 0), 'bind', { token: prober.token }), 429, /^验证码发送过于频繁/)
    expectFail(await sendCode(freshMobile(), 'bind', { token: prober.token }), 429, /^验证码发送过于频繁/)

    // Per address: 20 a day, whichever accounts ask.
    const ip = freshIp()
    const probers = await Promise.all([1, 2, 3].map(() => createUser()))
    for (let i = 0; i < 20; i++) expectFail(await sendCode(at(registered, i % 3), 'bind', { token: at(probers, i % 3).token, ip }), 409, TAKEN)
    expectFail(await sendCode(at(registered, 1), 'bind', { token: at(probers, 2).token, ip }), 429, /^验证码发送过于频繁/)
  })

  it('binding cannot probe which numbers are registered: without a code all get one answer, and each try counts against the address', async () => {
    const holder = await createUser()
    const registered = freshMobile()
    await db().user.update({ where: { id: holder.id }, data: { mobile: registered } })
    const prober = await createUser()
    const ip = freshIp()
    const probe = (mobile: string) => callRoute(bind.POST, { body: { mobile, code: '000000' }, token: prober.token, ip })
    for (let i = 0; i < SMS_VERIFY_IP_LIMIT.max; i++) expectFail(await probe(i % 2 ? registered : freshMobile()), 400, '请先获取验证码')
    expectFail(await probe(registered), 429, /^验证码校验过于频繁/)
    expect((await db().user.findUniqueOrThrow({ where: { id: prober.id } })).mobile).toBeNull()
  })

  it('validates the number and the code', async () => {
    const user = await createUser()
    expectFail(await bindWith(user.token, '12345', '123456'), 400, '请输入 11 位中国大陆手机号')
    expectFail(await bindWith(user.token, freshMobile(), 'abcdef'), 400, '请输入 6 位数字验证码')
    expectFail(await callRoute(bind.POST, { body: { mobile: freshMobile(), code: '123456', userId: 'x' }, token: user.token }), 400)
  })
})

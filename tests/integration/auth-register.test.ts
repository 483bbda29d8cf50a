// POST /api/auth/register: validation, uniqueness, weak passwords and the REGISTER_ENABLED switch.
import { describe, expect, it } from 'vitest'
import * as register from '@/app/api/auth/register/route'
import * as profile from '@/app/api/users/profile/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'

const GOOD_PASSWORD = 'quiet-river-42'

const registerAs = (body: unknown) => callRoute(register.POST, { body })
const userCount = () => db().user.count()

/** Registers with a body that must be refused with 400 and the given message, writing nothing. */
async function expectRefused(body: unknown, message: string | RegExp) {
  const before = await userCount()
  const res = await registerAs(body)
  expectFail(res, 400, message)
  expect(await userCount()).toBe(before)
}

async function setRegisterEnabled(value: boolean) {
  const admin = await createUser({ role: 'ADMIN' })
  const res = await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name: 'REGISTER_ENABLED' }, body: { value } })
  expectOk(res)
}

describe('POST /api/auth/register', () => {
  it('creates a USER, lower-cases the username and returns a working token', async () => {
    const data = expectOk(await registerAs({ username: '  Reg_Alice  ', password: GOOD_PASSWORD }))
    expect(Object.keys(data)).toEqual(['token'])
    expect(data.token).toEqual(expect.any(String))

    const row = await db().user.findUniqueOrThrow({ where: { username: 'reg_alice' } })
    expect(row).toMatchObject({ role: 'USER', name: 'reg_alice', points: 0, balance: 0, bannedAt: null })
    expect(row.passwordHash).toMatch(/^\$argon2id\$/)
    expect(row.passwordHash).not.toContain(GOOD_PASSWORD)

    const me = expectOk(await callRoute(profile.GET, { token: data.token }))
    expect(me).toMatchObject({ id: row.id, username: 'reg_alice', role: 'USER' })
  })

  it('refuses a username already taken, whatever its case, with 409', async () => {
    expectOk(await registerAs({ username: 'reg_bob', password: GOOD_PASSWORD }))
    for (const username of ['reg_bob', 'REG_BOB', 'Reg_Bob']) {
      expectFail(await registerAs({ username, password: 'another-fine-pass' }), 409, '用户名已被占用')
    }
    expect(await db().user.count({ where: { username: { equals: 'reg_bob', mode: 'insensitive' } } })).toBe(1)
  })

  it.each([
    ['too short', { username: 'ab', password: GOOD_PASSWORD }, '用户名为 3-32 位字母、数字或下划线'],
    ['too long', { username: 'a'.repeat(33), password: GOOD_PASSWORD }, '用户名为 3-32 位字母、数字或下划线'],
    ['with a space inside', { username: 'reg carol', password: GOOD_PASSWORD }, '用户名为 3-32 位字母、数字或下划线'],
    ['with Chinese characters', { username: '用户名', password: GOOD_PASSWORD }, '用户名为 3-32 位字母、数字或下划线'],
    ['with punctuation', { username: 'reg-carol!', password: GOOD_PASSWORD }, '用户名为 3-32 位字母、数字或下划线'],
    ['missing', { password: GOOD_PASSWORD }, '请输入用户名'],
    ['not a string', { username: 12345, password: GOOD_PASSWORD }, '请输入用户名'],
  ])('refuses a username %s with 400 and writes nothing', async (_case, body, message) => {
    await expectRefused(body, message)
  })

  it.each([
    ['shorter than 8', { username: 'reg_dave', password: 'short7!' }, '密码至少 8 位'],
    ['longer than 128', { username: 'reg_dave', password: 'x1'.repeat(65) }, '密码最多 128 位'],
    ['missing', { username: 'reg_dave' }, '请输入密码'],
    ['not a string', { username: 'reg_dave', password: 12345678 }, '请输入密码'],
  ])('refuses a password %s with 400 and writes nothing', async (_case, body, message) => {
    await expectRefused(body, message)
  })

  it.each([
    ['a leaked favourite', 'password'],
    ['a leaked favourite in capitals', 'PASSWORD1'],
    ['all digits from a list', '12345678'],
    ['one repeated character', 'zzzzzzzzzz'],
    ['the username itself', 'Reg_Erin99'],
  ])('refuses a too-common password (%s) with 400 and writes nothing', async (_case, password) => {
    await expectRefused({ username: 'reg_erin99', password }, '密码太常见，请换一个更难猜的密码')
  })

  it('refuses fields it does not know (no mass assignment of role or points)', async () => {
    await expectRefused({ username: 'reg_frank', password: GOOD_PASSWORD, role: 'ADMIN' }, /^不支持的参数：.*role/)
    await expectRefused({ username: 'reg_frank', password: GOOD_PASSWORD, points: 1000 }, /^不支持的参数：.*points/)
    expect(await db().user.findUnique({ where: { username: 'reg_frank' } })).toBeNull()
  })

  it('answers 403 while REGISTER_ENABLED is false and works again once it is true', async () => {
    await setRegisterEnabled(false)
    try {
      const before = await userCount()
      expectFail(await registerAs({ username: 'reg_grace', password: GOOD_PASSWORD }), 403, '本站暂未开放注册')
      expect(await userCount()).toBe(before)
    } finally {
      await setRegisterEnabled(true)
    }
    expectOk(await registerAs({ username: 'reg_grace', password: GOOD_PASSWORD }))
  })

  it('limits sign-ups per address (a taken name counts too) with a clear 429, creating nothing; other addresses go on', async () => {
    const ip = '203.0.113.50'
    const signUp = (username: string) => callRoute(register.POST, { body: { username, password: GOOD_PASSWORD }, ip })
    for (let i = 0; i < 25; i++) expectOk(await signUp(`reg_burst${i}`))
    for (let i = 0; i < 5; i++) expectFail(await signUp('reg_burst0'), 409, '用户名已被占用')
    const before = await userCount()
    expectFail(await signUp('reg_burst_more'), 429, /^注册过于频繁，请 \d+ 分钟 后再试$/)
    expect(await userCount()).toBe(before)
    expectOk(await callRoute(register.POST, { body: { username: 'reg_burst_more', password: GOOD_PASSWORD }, ip: '203.0.113.51' }))
  })
})

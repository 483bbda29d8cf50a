// GET/PATCH /api/users/profile and POST /api/users/password.
import { describe, expect, it } from 'vitest'
import * as login from '@/app/api/auth/login/route'
import * as profile from '@/app/api/users/profile/route'
import * as password from '@/app/api/users/password/route'
import { issueToken } from '@/lib/auth/token'
import { db } from '@/lib/db'
import { PASSWORD_CHANGE_LIMIT } from '@/lib/users/change-password'
import { callRoute, createUser } from '../helpers/call-route'
import { tokenSignedInAgo } from '../helpers/old-session'
import { expectFail, expectOk } from '../helpers/expect-response'

const PROFILE_KEYS = ['avatar', 'balance', 'createdAt', 'id', 'mobile', 'name', 'oauth', 'points', 'role', 'username']

const getProfile = (token: string) => callRoute(profile.GET, { token })
const patchProfile = (token: string, body: unknown) => callRoute(profile.PATCH, { method: 'PATCH', token, body })
const changePassword = (token: string, currentPassword: string, newPassword: string) =>
  callRoute(password.POST, { token, body: { currentPassword, newPassword } })

let ipCounter = 0
const loginAs = (username: string, pw: string) => callRoute(login.POST, { body: { username, password: pw }, ip: `198.51.100.${++ipCounter}` })

describe('GET /api/users/profile', () => {
  it('answers exactly the user-info fields, never the password hash or token version', async () => {
    const user = await createUser({ username: 'prof_amy', name: '小艾', points: 120, balance: 3450 })
    await db().user.update({ where: { id: user.id }, data: { mobile: '13800138000', wxOpenId: 'o-wx-openid-1' } })

    const data = expectOk(await getProfile(user.token))
    expect(Object.keys(data).sort()).toEqual(PROFILE_KEYS)
    expect(data).toEqual({
      id: user.id,
      username: 'prof_amy',
      name: '小艾',
      avatar: '/imgs/default_avatar.png',
      mobile: '13800138000',
      role: 'USER',
      points: 120,
      balance: 3450,
      oauth: { hasOpenId: true },
      createdAt: user.createdAt.toISOString(),
    })
    expect(Object.keys(data.oauth)).toEqual(['hasOpenId'])
    const raw = JSON.stringify(data)
    for (const hidden of ['passwordHash', 'tokenVersion', 'wxOpenId', 'o-wx-openid-1', 'argon2', 'bannedAt']) expect(raw).not.toContain(hidden)
  })

  it('reports hasOpenId false and a null mobile for a plain account', async () => {
    const user = await createUser({ username: 'prof_bo' })
    expect(expectOk(await getProfile(user.token))).toMatchObject({ mobile: null, oauth: { hasOpenId: false } })
  })

  it('answers 401 without a token', async () => {
    expectFail(await callRoute(profile.GET), 401, '请先登录')
  })
})

describe('PATCH /api/users/profile', () => {
  it('changes the name (trimmed) and answers the new profile', async () => {
    const user = await createUser({ username: 'prof_cy' })
    const data = expectOk(await patchProfile(user.token, { name: '  新昵称  ' }))
    expect(Object.keys(data).sort()).toEqual(PROFILE_KEYS)
    expect(data.name).toBe('新昵称')
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe('新昵称')
  })

  it.each([
    ['empty', { name: '' }, '昵称不能为空'],
    ['blank', { name: '    ' }, '昵称不能为空'],
    ['longer than 32 characters', { name: '名'.repeat(33) }, '昵称最多 32 个字符'],
    ['not a string', { name: 42 }, '昵称的格式不正确'],
    ['with a field the user may not set (role)', { name: 'ok', role: 'ADMIN' }, /^不支持的参数：.*role/],
    ['with a field the user may not set (points)', { name: 'ok', points: 999 }, /^不支持的参数：.*points/],
  ])('refuses a body %s with 400 and changes nothing', async (_case, body, message) => {
    const user = await createUser({ name: 'before' })
    expectFail(await patchProfile(user.token, body), 400, message)
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } })
    expect(row).toMatchObject({ name: 'before', role: 'USER', points: 0 })
  })

  it('answers 401 without a token', async () => {
    expectFail(await callRoute(profile.PATCH, { method: 'PATCH', body: { name: 'x' } }), 401)
  })
})

describe('POST /api/users/password', () => {
  it('refuses a wrong current password with 400 and keeps the old password and tokens', async () => {
    const user = await createUser({ username: 'prof_eli', password: 'old-password-1' })
    expectFail(await changePassword(user.token, 'not-my-password', 'brand-new-pass-2'), 400, '当前密码不正确')
    expectOk(await getProfile(user.token))
    expectOk(await loginAs('prof_eli', 'old-password-1'))
  })

  it.each([
    ['too short', () => 'short', '密码至少 8 位'],
    ['too common', () => 'password1', '密码太常见，请换一个更难猜的密码'],
    ['equal to the username', (username: string) => username.toUpperCase(), '密码太常见，请换一个更难猜的密码'],
  ])('refuses a new password that is %s with 400 and keeps the session', async (_case, newPasswordFor, message) => {
    const user = await createUser({ password: 'old-password-1' })
    expectFail(await changePassword(user.token, 'old-password-1', newPasswordFor(user.username)), 400, message)
    expectOk(await getProfile(user.token))
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).tokenVersion).toBe(user.tokenVersion)
  })

  it('returns a new token; the old token then gets 401 and only the new password logs in', async () => {
    const user = await createUser({ username: 'prof_gil', password: 'old-password-1' })
    const { token } = expectOk(await changePassword(user.token, 'old-password-1', 'brand-new-pass-2'))
    expect(token).toEqual(expect.any(String))
    expect(token).not.toBe(user.token)

    expectFail(await getProfile(user.token), 401, '请先登录')
    expect(expectOk(await getProfile(token)).id).toBe(user.id)

    expectFail(await loginAs('prof_gil', 'old-password-1'), 400, '用户名或密码错误')
    expectOk(await loginAs('prof_gil', 'brand-new-pass-2'))
  })

  it('limits attempts per account (5 in 15 minutes) with a clear 429; a too common new password is refused before counting', async () => {
    const user = await createUser({ password: 'old-password-1' })
    for (let i = 0; i < 4; i++) expectFail(await changePassword(user.token, `guess-${i}-password`, 'brand-new-pass-2'), 400, '当前密码不正确')
    // Refused before any hashing: not an attempt.
    expectFail(await changePassword(user.token, 'old-password-1', 'password1'), 400, '密码太常见，请换一个更难猜的密码')
    expectFail(await changePassword(user.token, 'guess-5-password', 'brand-new-pass-2'), 400, '当前密码不正确')
    expectFail(await changePassword(user.token, 'guess-6-password', 'brand-new-pass-2'), 429, /^修改密码过于频繁，请 \d+ 分钟 后再试$/)
    // Now even the right one waits: the guesser learns nothing.
    expectFail(await changePassword(user.token, 'old-password-1', 'brand-new-pass-2'), 429, /^修改密码过于频繁/)
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).tokenVersion).toBe(user.tokenVersion)

    const other = await createUser({ password: 'old-password-1' })
    expectOk(await changePassword(other.token, 'old-password-1', 'brand-new-pass-2'))

    await db().rateLimitCounter.updateMany({ where: { key: `password-change:user:${user.id}` }, data: { resetAt: new Date(Date.now() - 1000) } })
    expectOk(await changePassword(user.token, 'old-password-1', 'brand-new-pass-2'))
  })

  it('right passwords count too: one account cannot queue hashes without limit', async () => {
    const user = await createUser({ password: 'old-password-0' })
    let token = user.token
    for (let i = 1; i <= 5; i++) token = expectOk(await changePassword(token, `old-password-${i - 1}`, `old-password-${i}`)).token
    expectFail(await changePassword(token, 'old-password-5', 'old-password-6'), 429, /^修改密码过于频繁，请 \d+ 分钟 后再试$/)
    expectOk(await loginAs(user.username, 'old-password-5'))

    // A burst from one session: at most the limit gets as far as hashing.
    const other = await createUser({ password: 'old-password-1' })
    const burst = await Promise.all(Array.from({ length: 20 }, () => changePassword(other.token, 'old-password-1', 'brand-new-pass-2')))
    const changed = burst.filter((r) => r.status === 200).length
    expect(changed).toBeGreaterThan(0)
    expect(changed).toBeLessThanOrEqual(PASSWORD_CHANGE_LIMIT.max)
  })

  it('an account without a password (WeChat, SMS) sets a first one only within 10 minutes of signing in', async () => {
    const user = await createUser({ username: 'prof_wx' })
    await db().user.update({ where: { id: user.id }, data: { passwordHash: null } })
    const older = await tokenSignedInAgo(user, 11)
    expectFail(await changePassword(older, '', 'brand-new-pass-2'), 400, '为了账号安全，请重新登录后 10 分钟内设置密码')
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBeNull()

    const fresh = await issueToken(user.id, user.tokenVersion)
    const { token } = expectOk(await changePassword(fresh, '', 'brand-new-pass-2'))
    expectFail(await getProfile(older), 401, '请先登录')
    expectOk(await getProfile(token))
    expectOk(await loginAs('prof_wx', 'brand-new-pass-2'))
    // From now on it is a change like any other: the current password is asked for.
    expectFail(await changePassword(token, '', 'brand-new-pass-3'), 400, '当前密码不正确')
  })

  it('refuses unknown fields with 400', async () => {
    const user = await createUser({ username: 'prof_hu', password: 'old-password-1' })
    const res = await callRoute(password.POST, { token: user.token, body: { currentPassword: 'old-password-1', newPassword: 'brand-new-pass-2', userId: 'x' } })
    expectFail(res, 400, /^不支持的参数：.*userId/)
    expectOk(await getProfile(user.token))
  })

  it('answers 401 without a token', async () => {
    expectFail(await callRoute(password.POST, { body: { currentPassword: 'a', newPassword: 'brand-new-pass-2' } }), 401)
  })
})

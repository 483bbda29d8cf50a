// POST /api/auth/login: credentials, identical failures, throttling per account and per address, bans.
import { describe, expect, it } from 'vitest'
import * as login from '@/app/api/auth/login/route'
import * as profile from '@/app/api/users/profile/route'
import * as adminUser from '@/app/api/admin/user/[id]/route'
import { db } from '@/lib/db'
import { LOGIN_LIMITS } from '@/lib/users/login-user'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'

const PASSWORD = 'the-right-password'
const WRONG_CREDENTIALS = '用户名或密码错误'
const THROTTLED = /^登录尝试过于频繁，请 \d+ (秒|分钟) 后再试$/

let ipCounter = 0
/** Every test gets its own address, so the per-address counter of one test never leaks into another. */
const freshIp = () => `192.0.2.${++ipCounter}`

const loginAs = (username: string, password: string, ip: string) => callRoute(login.POST, { body: { username, password }, ip })

async function failTimes(n: number, username: string, ip: string) {
  for (let i = 0; i < n; i++) expectFail(await loginAs(username, `wrong-password-${i}`, ip), 400, WRONG_CREDENTIALS)
}

describe('POST /api/auth/login', () => {
  it('returns a working token for good credentials, whatever the username case', async () => {
    const user = await createUser({ username: 'login_ann', password: PASSWORD })
    const data = expectOk(await loginAs('Login_ANN', PASSWORD, freshIp()))
    expect(Object.keys(data)).toEqual(['token'])
    const me = expectOk(await callRoute(profile.GET, { token: data.token }))
    expect(me.id).toBe(user.id)
  })

  it('answers a wrong password and an unknown user identically', async () => {
    await createUser({ username: 'login_ben', password: PASSWORD })
    const wrongPassword = await loginAs('login_ben', 'not-the-password', freshIp())
    const unknownUser = await loginAs('login_nobody', 'not-the-password', freshIp())
    expectFail(wrongPassword, 400, WRONG_CREDENTIALS)
    expect(unknownUser).toEqual(wrongPassword)
  })

  it('refuses a malformed request with 400 and a readable message', async () => {
    expectFail(await callRoute(login.POST, { body: { username: 'login_ben' }, ip: freshIp() }), 400, '请输入密码')
    expectFail(await callRoute(login.POST, { body: { username: 'login_ben', password: '' }, ip: freshIp() }), 400, '请输入密码')
    expectFail(await callRoute(login.POST, { body: { password: PASSWORD }, ip: freshIp() }), 400, '请输入用户名')
  })

  describe('per-account throttling', () => {
    it('answers 429 to that address on the 6th attempt after 5 failures, even with the right password; the owner elsewhere signs in', async () => {
      await createUser({ username: 'login_cat', password: PASSWORD })
      const guesser = freshIp()
      await failTimes(5, 'login_cat', guesser)
      const res = await loginAs('login_cat', PASSWORD, guesser)
      const message = expectFail(res, 429, THROTTLED)
      expect(res.body.code).toBe('TOO_MANY_REQUESTS')
      expect(message).toMatch(/1[45] 分钟|\d+ 秒/)
      // The username is matched case-insensitively, so capitals do not get round the wait.
      expectFail(await loginAs('LOGIN_CAT', PASSWORD, guesser), 429, THROTTLED)
      // Someone else's wrong passwords do not lock the owner out: from their own address they sign in.
      expectOk(await loginAs('login_cat', PASSWORD, freshIp()))
    })

    it('counts failures against unknown usernames too, with the same 429', async () => {
      const ip = freshIp()
      await failTimes(5, 'login_ghost', ip)
      expectFail(await loginAs('login_ghost', 'anything-at-all', ip), 429, THROTTLED)
    })

    it('across all addresses, allows 100 failures an hour; then the account waits wherever the sign-in comes from', async () => {
      expect(LOGIN_LIMITS.perAccount).toEqual({ max: 100, windowSeconds: 60 * 60 })
      await createUser({ username: 'login_kit', password: PASSWORD })
      // 20 addresses, 5 guesses each: none of them is over its own limit.
      const guessers = Array.from({ length: 20 }, freshIp)
      for (const ip of guessers) await failTimes(5, 'login_kit', ip)
      const res = await loginAs('login_kit', PASSWORD, freshIp())
      expect(expectFail(res, 429, THROTTLED)).toMatch(/(5\d|60) 分钟/)
      expect((await db().rateLimitCounter.findUniqueOrThrow({ where: { key: 'login:user:login_kit' } })).count).toBe(100)
    })

    it('does not throttle other accounts', async () => {
      await createUser({ username: 'login_dan', password: PASSWORD })
      await createUser({ username: 'login_dan2', password: PASSWORD })
      const ip = freshIp()
      await failTimes(5, 'login_dan', ip)
      expectOk(await loginAs('login_dan2', PASSWORD, ip))
    })

    it('clears the account counter after a successful login', async () => {
      await createUser({ username: 'login_eve', password: PASSWORD })
      await failTimes(4, 'login_eve', freshIp())
      expectOk(await loginAs('login_eve', PASSWORD, freshIp()))
      expect(await db().rateLimitCounter.findUnique({ where: { key: 'login:user:login_eve' } })).toBeNull()
      // Without the reset the 6th failure from this address would already be throttled.
      const ip = freshIp()
      await failTimes(4, 'login_eve', ip)
      expectOk(await loginAs('login_eve', PASSWORD, ip))
      expect(await db().rateLimitCounter.findMany({ where: { key: { in: ['login:user:login_eve', `login:user:login_eve:ip:${ip}`] } } })).toEqual([])
      await failTimes(5, 'login_eve', ip)
    })

    // Attempts are counted before the password is checked, so parallel guesses cannot
    // all slip under the limit.
    it('allows at most 5 guesses per account from one address when the attempts arrive at the same time', async () => {
      await createUser({ username: 'login_fay', password: PASSWORD })
      const ip = freshIp()
      const attempts = await Promise.all(Array.from({ length: 12 }, (_, i) => loginAs('login_fay', `wrong-guess-${i}`, ip)))
      const statuses = attempts.map((r) => r.status)
      expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(5)
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7)
    })
  })

  describe('per-address throttling', () => {
    it('answers 429 to an address after 20 failures across usernames; another address still works', async () => {
      await createUser({ username: 'login_gus', password: PASSWORD })
      const ip = freshIp()
      for (let i = 0; i < 20; i++) expectFail(await loginAs(`login_spray${i}`, 'guessing-away', ip), 400, WRONG_CREDENTIALS)

      expectFail(await loginAs('login_gus', PASSWORD, ip), 429, THROTTLED)
      expectFail(await loginAs('login_newname', 'guessing-away', ip), 429, THROTTLED)
      expectOk(await loginAs('login_gus', PASSWORD, freshIp()))
    })

    it('counts an IPv6 client by its /64: a new address from the same network each time does not help', async () => {
      await createUser({ username: 'login_ivy', password: PASSWORD })
      for (let i = 0; i < 20; i++)
        expectFail(await loginAs(`login_v6spray${i}`, 'guessing-away', `2001:db8:77:1::${(i + 1).toString(16)}`), 400, WRONG_CREDENTIALS)
      expectFail(await loginAs('login_ivy', PASSWORD, '2001:db8:77:1:ffff:ffff:ffff:fffe'), 429, THROTTLED)
      // The next network is someone else.
      expectOk(await loginAs('login_ivy', PASSWORD, '2001:db8:77:2::1'))
    })
  })

  describe('banned users', () => {
    it('cannot log in (403) and their existing token stops working (401); unbanning restores login', async () => {
      const admin = await createUser({ role: 'ADMIN' })
      const user = await createUser({ username: 'login_hal', password: PASSWORD })
      expectOk(await callRoute(profile.GET, { token: user.token }))

      const setBanned = (banned: boolean) => callRoute(adminUser.PATCH, { method: 'PATCH', token: admin.token, params: { id: user.id }, body: { banned } })
      const banned = expectOk(await setBanned(true))
      expect(banned.bannedAt).toEqual(expect.any(String))

      expectFail(await loginAs('login_hal', PASSWORD, freshIp()), 403, '账号已被禁用，请联系管理员')
      expectFail(await callRoute(profile.GET, { token: user.token }), 401, '请先登录')
      // A wrong password still gets the ordinary answer: a ban is not revealed without the password.
      expectFail(await loginAs('login_hal', 'not-the-password', freshIp()), 400, WRONG_CREDENTIALS)

      expectOk(await setBanned(false))
      const { token } = expectOk(await loginAs('login_hal', PASSWORD, freshIp()))
      expectOk(await callRoute(profile.GET, { token }))
      // The token from before the ban stays revoked.
      expectFail(await callRoute(profile.GET, { token: user.token }), 401)
    })
  })
})

// Token checks shared by every signed-in route: logout everywhere, forged, expired and orphaned tokens.
import { encode } from 'next-auth/jwt'
import { describe, expect, it } from 'vitest'
import * as login from '@/app/api/auth/login/route'
import * as logout from '@/app/api/auth/logout/route'
import * as profile from '@/app/api/users/profile/route'
import { issueToken } from '@/lib/auth/token'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'

const PASSWORD = 'token-test-password'

let ipCounter = 0
async function loginAs(username: string): Promise<string> {
  return expectOk(await callRoute(login.POST, { body: { username, password: PASSWORD }, ip: `203.0.113.${++ipCounter}` })).token
}

const profileWith = (token: string | undefined, headers?: Record<string, string>) => callRoute(profile.GET, { token, headers })
const expectUnauthorized = async (token: string | undefined, headers?: Record<string, string>) => expectFail(await profileWith(token, headers), 401, '请先登录')

describe('POST /api/auth/logout', () => {
  it('revokes every token issued before it, on every device', async () => {
    const user = await createUser({ username: 'tok_ada', password: PASSWORD })
    const phone = await loginAs('tok_ada')
    const laptop = await loginAs('tok_ada')
    for (const token of [user.token, phone, laptop]) expectOk(await profileWith(token))

    expect(expectOk(await callRoute(logout.POST, { token: phone }))).toBeNull()

    for (const token of [user.token, phone, laptop]) await expectUnauthorized(token)
    // Logging out again with a revoked token is itself unauthorized.
    expectFail(await callRoute(logout.POST, { token: laptop }), 401)
    // A new login works.
    expectOk(await profileWith(await loginAs('tok_ada')))
  })

  it('does not touch other users', async () => {
    const alice = await createUser()
    const bob = await createUser()
    expectOk(await callRoute(logout.POST, { token: alice.token }))
    expectOk(await profileWith(bob.token))
  })

  it('answers 401 without a token', async () => {
    expectFail(await callRoute(logout.POST, { method: 'POST' }), 401, '请先登录')
  })
})

describe('bad tokens get 401', () => {
  it('no Authorization header', async () => {
    await expectUnauthorized(undefined)
  })

  it('garbage in the Authorization header', async () => {
    await expectUnauthorized('garbage')
    await expectUnauthorized('eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bad.bad.bad')
    await expectUnauthorized(undefined, { authorization: 'Bearer ' })
  })

  it('a valid token without the Bearer prefix', async () => {
    const user = await createUser()
    await expectUnauthorized(undefined, { authorization: user.token })
    await expectUnauthorized(undefined, { authorization: `Token ${user.token}` })
  })

  it('a valid token with anything around it (each such header would otherwise be a new entry of the decoded-token cache)', async () => {
    const user = await createUser()
    for (const authorization of [`Bearer ${user.token} ${'x'.repeat(8000)}`, `Bearer ${user.token} x`, `Bearer  ${user.token}`, `Bearer ${user.token}.x`]) {
      await expectUnauthorized(undefined, { authorization })
    }
    expectOk(await profileWith(user.token))
  })

  it('a token signed with another secret', async () => {
    const user = await createUser()
    const forged = await encode({ token: { sub: user.id, ver: user.tokenVersion }, secret: 'someone-elses-secret-0123456789abcdefghij', maxAge: 3600 })
    await expectUnauthorized(forged)
  })

  it('an expired token', async () => {
    const user = await createUser()
    const expired = await encode({ token: { sub: user.id, ver: user.tokenVersion }, secret: process.env.AUTH_SECRET!, maxAge: -60 })
    await expectUnauthorized(expired)
  })

  it('a token without a version, or with a stale or future one', async () => {
    const user = await createUser()
    const secret = process.env.AUTH_SECRET!
    await expectUnauthorized(await encode({ token: { sub: user.id }, secret, maxAge: 3600 }))
    await expectUnauthorized(await issueToken(user.id, user.tokenVersion + 1))
    await db().user.update({ where: { id: user.id }, data: { tokenVersion: 3 } })
    await expectUnauthorized(await issueToken(user.id, 2))
    expectOk(await profileWith(await issueToken(user.id, 3)))
  })

  it('a token for a user id that does not exist', async () => {
    await expectUnauthorized(await issueToken('c-no-such-user-000000000', 0))
  })

  it('the token of a banned user, even when the ban did not bump the token version', async () => {
    const user = await createUser()
    await db().user.update({ where: { id: user.id }, data: { bannedAt: new Date() } })
    await expectUnauthorized(user.token)
    await db().user.update({ where: { id: user.id }, data: { bannedAt: null } })
    expectOk(await profileWith(user.token))
  })

  it('the token of a deleted user', async () => {
    const user = await createUser()
    expectOk(await profileWith(user.token))
    await db().user.delete({ where: { id: user.id } })
    await expectUnauthorized(user.token)
  })
})

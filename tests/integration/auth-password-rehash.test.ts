// A password stored with the old, cheaper argon2id parameters keeps working and is stored
// again at the current cost on the first successful login (this file runs at the
// production cost: NODE_ENV=production).
import { hash } from '@node-rs/argon2'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as login from '@/app/api/auth/login/route'
import { HASHING_BUSY, MAX_WAITING_HASHES, PASSWORD_HASH_COST, hashPassword, verifyPassword } from '@/lib/auth/password'
import { db } from '@/lib/db'
import { callRoute } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'

const PASSWORD = 'the-right-password'
const OLD_COST = { memoryCost: 19456, timeCost: 2, parallelism: 1 }
const CURRENT = `m=${PASSWORD_HASH_COST.memoryCost},t=${PASSWORD_HASH_COST.timeCost},p=${PASSWORD_HASH_COST.parallelism}`

beforeAll(() => {
  vi.stubEnv('NODE_ENV', 'production')
})
afterAll(() => {
  vi.unstubAllEnvs()
})

let n = 0
async function userWithHash(passwordHash: string) {
  const username = `rehash_${++n}`
  await db().user.create({ data: { username, name: username, passwordHash } })
  return username
}
const storedHash = async (username: string) => (await db().user.findUniqueOrThrow({ where: { username } })).passwordHash!
const loginAs = (username: string, password: string) => callRoute(login.POST, { body: { username, password }, ip: `203.0.113.${n}` })

describe('argon2id parameters on login', () => {
  it('an old hash signs in, is stored again at the current cost, and the password keeps working', async () => {
    const old = await hash(PASSWORD, { algorithm: 2, ...OLD_COST })
    const username = await userWithHash(old)

    expectOk(await loginAs(username, PASSWORD))
    const upgraded = await storedHash(username)
    expect(upgraded).not.toBe(old)
    expect(upgraded).toContain(`$argon2id$v=19$${CURRENT}$`)

    expectOk(await loginAs(username, PASSWORD))
    expect(await storedHash(username)).toBe(upgraded)
  })

  it('a wrong password changes nothing', async () => {
    const old = await hash(PASSWORD, { algorithm: 2, ...OLD_COST })
    const username = await userWithHash(old)
    expectFail(await loginAs(username, 'not-the-password'), 400, '用户名或密码错误')
    expect(await storedHash(username)).toBe(old)
  })

  it('a hash at the current cost is left as it is', async () => {
    const current = await hashPassword(PASSWORD)
    expect(current).toContain(`$${CURRENT}$`)
    const username = await userWithHash(current)
    expectOk(await loginAs(username, PASSWORD))
    expect(await storedHash(username)).toBe(current)
  })

  it('with every hash slot and the line behind them taken, a sign-in is 503 at once and counts against nobody', async () => {
    const current = await hashPassword(PASSWORD)
    const username = await userWithHash(current)
    const counters = () =>
      db().rateLimitCounter.findMany({
        where: { key: { in: [`login:user:${username}`, `login:user:${username}:ip:203.0.113.${n}`, `login:ip:203.0.113.${n}`] } },
        select: { key: true, count: true },
      })
    // 4 checks at the production cost run and 64 wait: the login arrives behind them.
    const flood = Array.from({ length: 4 + MAX_WAITING_HASHES }, () => verifyPassword(current, 'a-wrong-password'))
    try {
      expectFail(await loginAs(username, PASSWORD), 503, HASHING_BUSY)
      expect((await counters()).filter((c) => c.count !== 0)).toEqual([])
      expect(await storedHash(username)).toBe(current)
    } finally {
      expect(await Promise.all(flood)).toEqual(flood.map(() => false))
    }
    expectOk(await loginAs(username, PASSWORD))
  })
})

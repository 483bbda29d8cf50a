// Bursts against the rate limiter on the real PostgreSQL server: counters shared by many
// requests at once must never deadlock (a deadlock answers 500), whatever the mix of keys.
import { describe, expect, it } from 'vitest'
import * as login from '@/app/api/auth/login/route'
import * as register from '@/app/api/auth/register/route'
import { pruneExpiredCounters } from '@/lib/auth/rate-limit'
import { db } from '@/lib/db'
import { LOGIN_LIMITS } from '@/lib/users/login-user'
import { REGISTER_LIMITS } from '@/lib/users/register-user'
import { callRoute, createUser } from '../helpers/call-route'

// Enough connections that the requests really run side by side in PostgreSQL (setup.ts
// gives 20); read when the first query opens the pool.
process.env.DATABASE_POOL_SIZE = '60'

const statusCounts = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})

/** Fresh account and address names per round, so each round starts from empty counters. */
async function failedLoginBurst(round: number) {
  const accounts = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `burst${round}_${x}`)
  for (const username of accounts.slice(0, 4)) await createUser({ username, password: 'the-right-password' })
  const addresses = [1, 2, 3, 4, 5].map((x) => `198.51.${100 + round}.${x}`)
  // Every account is tried from every address and every address tries every account
  // (two of the accounts do not exist: they are counted the same way).
  const tries = Array.from({ length: 500 }, (_, i) => ({
    username: accounts[i % accounts.length],
    ip: addresses[Math.floor(i / accounts.length) % addresses.length],
  }))

  const results = await Promise.all(tries.map((t, i) => callRoute(login.POST, { body: { username: t.username, password: `wrong-${i}` }, ip: t.ip })))

  const statuses = results.map((r) => r.status)
  expect(statusCounts(statuses)).not.toHaveProperty('500')
  // 503: more checks than the hash slots and their waiting line hold at once; those count against nobody.
  expect([...new Set(statuses)].sort()).toEqual(expect.arrayContaining([400, 429]))
  expect(statuses.every((s) => [400, 429, 503].includes(s))).toBe(true)
  // As designed: no account from one address, no account and no address got more wrong-password answers than its limit.
  const checked = tries.filter((_, i) => statuses[i] === 400)
  const pairs = accounts.flatMap((username) => addresses.map((ip) => ({ username, ip, key: `login:user:${username}:ip:${ip}` })))
  const checkedPair = (p: { username: string; ip: string }) => checked.filter((t) => t.username === p.username && t.ip === p.ip).length
  for (const pair of pairs) expect(checkedPair(pair)).toBeLessThanOrEqual(LOGIN_LIMITS.perAccountAndAddress.max)
  for (const username of accounts) expect(checked.filter((t) => t.username === username).length).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount.max)
  for (const ip of addresses) expect(checked.filter((t) => t.ip === ip).length).toBeLessThanOrEqual(LOGIN_LIMITS.perIp.max)
  // Refused attempts were given back: each counter holds exactly the attempts that were checked.
  const counters = await db().rateLimitCounter.findMany({
    where: { key: { in: [...pairs.map((p) => p.key), ...accounts.map((a) => `login:user:${a}`), ...addresses.map((a) => `login:ip:${a}`)] } },
  })
  const countOf = (key: string) => counters.find((c) => c.key === key)?.count ?? 0
  for (const pair of pairs) expect(countOf(pair.key)).toBe(checkedPair(pair))
  for (const username of accounts) expect(countOf(`login:user:${username}`)).toBe(checked.filter((t) => t.username === username).length)
  for (const ip of addresses) expect(countOf(`login:ip:${ip}`)).toBe(checked.filter((t) => t.ip === ip).length)
}

// A deadlock needs two statements to meet at the wrong moment: a few rounds make one
// near certain when the lock order is not fixed.
describe('rate limiter under concurrent bursts', () => {
  it.each([1, 2, 3, 4])(
    '500 failed logins at once (same accounts, same addresses, crossed) answer only 400, 429 or (hashing full) 503: round %i',
    async (round) => {
      await failedLoginBurst(round)
    },
  )

  it.each([1, 2, 3])('200 sign-ups at once from two addresses answer only 200, 409 or 429: round %i', async (round) => {
    const addresses = [`198.51.110.${round}`, `198.51.120.${round}`]
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        callRoute(register.POST, { body: { username: `burst_reg${round}_${i % 50}`, password: 'quiet-river-42' }, ip: addresses[i % 2] }),
      ),
    )
    const statuses = results.map((r) => r.status)
    expect(statusCounts(statuses)).not.toHaveProperty('500')
    for (const status of statuses) expect([200, 409, 429]).toContain(status)
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(addresses.length * REGISTER_LIMITS.perIpHour.max)
  })

  it('pruning removes ended windows only, and never waits for a request holding a counter', async () => {
    const past = new Date(Date.now() - 1000)
    await db().rateLimitCounter.createMany({
      data: [
        { key: 'prune:ended:a', count: 3, resetAt: past },
        { key: 'prune:ended:held', count: 3, resetAt: past },
        { key: 'prune:live', count: 3, resetAt: new Date(Date.now() + 60_000) },
      ],
    })
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "RateLimitCounter" WHERE "key" = 'prune:ended:held' FOR UPDATE`
      expect(await pruneExpiredCounters()).toBeGreaterThanOrEqual(1)
    })
    const left = (await db().rateLimitCounter.findMany({ where: { key: { startsWith: 'prune:' } } })).map((c) => c.key).sort()
    expect(left).toEqual(['prune:ended:held', 'prune:live'])
    expect(await pruneExpiredCounters()).toBeGreaterThanOrEqual(1)
    expect(await db().rateLimitCounter.count({ where: { key: { startsWith: 'prune:ended' } } })).toBe(0)
  })
})

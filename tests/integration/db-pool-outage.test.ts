// lib/db.ts's pool with the database behind a TCP proxy that cuts or black-holes it
// (docs/DECISIONS.md, "Database timeouts"): every failure is one isDatabaseUnavailable
// recognises, a connection that failed never goes back to the pool, and the pool serves again
// once the database is back, by itself.
import { PrismaPg } from '@prisma/adapter-pg'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { createPool, statementNames, type DbTimeouts } from '@/lib/db'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { isDatabaseUnavailable } from '@/lib/http/database-unavailable'
import { startTcpProxy, type TcpProxy } from '../fakes/tcp-proxy'

// Short, so a black hole costs a second or two, in the same relation as the real ones.
const TIMEOUTS: DbTimeouts = { connectMs: 1_000, poolWaitMs: 3_000, statementMs: 1_500 }

let proxy: TcpProxy | undefined
let ends: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const end of ends) await end().catch(() => undefined)
  ends = []
  await proxy?.close()
})

async function throughProxy() {
  const target = new URL(inject('databaseUrl'))
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const url = new URL(target)
  url.port = String(proxy.port)
  const pool = createPool(url.toString(), 3, TIMEOUTS)
  // Named statements, as db() names them: a connection that was lost takes its prepared statements with it.
  const names = statementNames()
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: names }), transactionOptions: { maxWait: 3_000, timeout: 5_000 } })
  ends = [() => prisma.$disconnect(), () => pool.end()]
  const read = () => readRows<{ n: number }[]>(Prisma.sql`SELECT count(*)::int AS "n" FROM "User" WHERE "role" = ${'ADMIN'}::"Role"`, { pool, names })
  return { proxy, pool, prisma, read }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  )

describe('the pool when the database goes away', () => {
  it('cut: reads and transactions fail as unavailable; after the restore the pool reconnects', async () => {
    const { proxy, prisma, read } = await throughProxy()
    expect(await prisma.user.count()).toBeGreaterThanOrEqual(0)
    expect((await read())[0]!.n).toBeGreaterThanOrEqual(0)
    await proxy.cut()
    expect(isDatabaseUnavailable(await failure(prisma.user.count()))).toBe(true)
    expect(isDatabaseUnavailable(await failure(prisma.$transaction(async (tx) => tx.user.count())))).toBe(true)
    // The reads that skip Prisma fail as unavailable too (the refused connection is a bare ECONNREFUSED).
    expect(isDatabaseUnavailable(await failure(read()))).toBe(true)
    await proxy.restore()
    expect(await prisma.user.count()).toBeGreaterThanOrEqual(0)
    expect(await prisma.$transaction(async (tx) => tx.user.count())).toBeGreaterThanOrEqual(0)
    expect((await read())[0]!.n).toBeGreaterThanOrEqual(0)
  })

  it('black hole: a read gives up after the statement timeout, a new connection after the connect timeout', async () => {
    const { proxy, prisma, pool } = await throughProxy()
    await prisma.user.count()
    proxy.blackHole()
    const stuck = await failure(prisma.user.count())
    expect(isDatabaseUnavailable(stuck)).toBe(true)
    // The pooled connection that timed out was dropped; the next read needs a new one, which never starts.
    expect(pool.totalCount).toBe(0)
    expect(isDatabaseUnavailable(await failure(prisma.user.count()))).toBe(true)
    await proxy.restore()
    expect(await prisma.user.count()).toBeGreaterThanOrEqual(0)
  })

  it('black hole inside a transaction: its connection leaves the pool instead of going back still waiting', async () => {
    const { proxy, prisma, pool } = await throughProxy()
    const error = await failure(
      prisma.$transaction(async (tx) => {
        await tx.user.count()
        proxy.blackHole()
        await tx.user.count()
      }),
    )
    expect(isDatabaseUnavailable(error)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(pool.idleCount).toBe(0)
    await proxy.restore()
    expect(await prisma.user.count()).toBeGreaterThanOrEqual(0)
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createDb } from '@/lib/db'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded'
import { applyMigrations } from '@/lib/db/migrate'
import { postMovement } from '@/lib/ledger/post-movement'
import { at, only } from '../helpers/present'

/**
 * The embedded default (PGlite behind our wire-protocol server) under the same kind of
 * concurrent load the app puts on it: many pooled connections, extended-protocol
 * queries and interactive transactions at once. Then a restart keeps the data.
 */
describe('the embedded database', () => {
  let dir = ''
  let embedded: EmbeddedDatabase | undefined
  afterAll(async () => {
    await embedded?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('serves concurrent queries and transactions correctly and keeps its data across a restart', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'aiimg-embedded-'))
    embedded = await startEmbeddedDatabase(path.join(dir, 'pg'))
    await applyMigrations(embedded.url)
    const { client, close } = createDb(embedded.url, 8)
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => client.user.create({ data: { username: `emb${i}`, name: `emb${i}` } })))

    // 200 ledger moves over 8 connections: parameterised statements and transactions interleave.
    const moves = Array.from({ length: 200 }, (_, i) => ({ userId: at(users, i % 5).id, amount: i % 3 === 0 ? -2 : 5, ref: `emb:${i}` }))
    // Plain parameterised reads with different parameter counts run at the same time.
    // Some carry large parameters, which arrive in several TCP chunks.
    const reads = Array.from({ length: 200 }, (_, i) =>
      i % 10 === 0
        ? client.siteConfig
            .upsert({ where: { name: `big${i}` }, create: { name: `big${i}`, value: 'x'.repeat(200_000) }, update: {} })
            .then((r) => r.value.length === 200_000)
        : i % 2
          ? client.user.findUnique({ where: { id: at(users, i % 5).id }, select: { username: true } }).then((u) => u?.username === at(users, i % 5).username)
          : client.user.count({ where: { username: { in: [at(users, i % 5).username, `nobody${i}`, `x${i}`] }, role: 'USER' } }).then((n) => n === 1),
    )
    const [outcomes, readOk] = await Promise.all([
      Promise.allSettled(
        moves.map((m) =>
          client.$transaction((tx) => postMovement(tx, { userId: m.userId, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: m.amount, reference: m.ref })),
        ),
      ),
      Promise.all(reads),
    ])
    expect(readOk.every(Boolean)).toBe(true)
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason.message === '积分不足')).toBe(true)

    for (const user of users) {
      const { sum } = only(await client.$queryRaw<{ sum: bigint | null }[]>`SELECT sum("amount") AS "sum" FROM "LedgerEntry" WHERE "userId" = ${user.id}`)
      const row = await client.user.findUniqueOrThrow({ where: { id: user.id } })
      expect(Number(sum ?? 0)).toBe(row.points)
      expect(row.points).toBeGreaterThanOrEqual(0)
    }
    const total = await client.ledgerEntry.count()
    await close()
    await embedded.stop()

    embedded = await startEmbeddedDatabase(path.join(dir, 'pg'))
    const raw = new pg.Client({ connectionString: embedded.url })
    await raw.connect()
    expect(Number((await raw.query('SELECT count(*) FROM "LedgerEntry"')).rows[0].count)).toBe(total)
    await raw.end()
  }, 120_000)
})

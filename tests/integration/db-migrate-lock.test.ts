// Prisma's schema engine holds a session advisory lock while it migrates. The lock must be
// gone when applyMigrations returns: the web process migrates at start and then serves for
// days, and the worker (or a second web) that starts next would wait on it and give up.
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { applyMigrations } from '@/lib/db/migrate'
import { SERVER_URL, createTestDatabase } from '../helpers/test-database'

let database: Awaited<ReturnType<typeof createTestDatabase>>

beforeAll(async () => {
  database = await createTestDatabase('aiimg_it_lock')
}, 60_000)

afterAll(async () => {
  await database?.drop()
})

async function sessionsOn(url: string): Promise<{ sessions: number; advisoryLocks: number }> {
  const name = new URL(url).pathname.slice(1)
  const client = new pg.Client({ connectionString: SERVER_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ sessions: number; locks: number }>(
      `SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE datname = $1) AS sessions,
              (SELECT count(*)::int FROM pg_locks l JOIN pg_database d ON d.oid = l.database
                WHERE d.datname = $1 AND l.locktype = 'advisory') AS locks`,
      [name],
    )
    return { sessions: rows[0]!.sessions, advisoryLocks: rows[0]!.locks }
  } finally {
    await client.end()
  }
}

it('leaves no connection and no advisory lock behind, so the next process migrates at once', async () => {
  expect(await sessionsOn(database.url)).toEqual({ sessions: 0, advisoryLocks: 0 })
  const started = Date.now()
  expect(await applyMigrations(database.url)).toEqual([])
  expect(await sessionsOn(database.url)).toEqual({ sessions: 0, advisoryLocks: 0 })
  // Well under the engine's 10 s wait for the lock, which a leaked session made it sit out.
  expect(Date.now() - started).toBeLessThan(5_000)
})

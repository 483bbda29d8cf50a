// Helpers of the tests that storm a table while checking the counters its triggers keep.
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'

/**
 * A storm's own pool to the test database, open for the file's tests, and `q`: a query on
 * it sent again after a deadlock (`retrying`). Call at the top of a test file.
 */
export function stormPool(): { readonly pool: pg.Pool; q: ReturnType<typeof retrying> } {
  let pool: pg.Pool | undefined
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 12 })
  })
  afterAll(async () => {
    await pool?.end()
  })
  const open = () => {
    if (!pool) throw new Error('stormPool: used before the tests started')
    return pool
  }
  return {
    get pool() {
      return open()
    },
    q: (sql, params) => retrying(open())(sql, params),
  }
}

/**
 * Runs `work` while checking, over and over, that each of `mustBeZero` (a name and an SQL
 * expression of an integer, say the count of keys whose rows and counter disagree) is 0 in
 * one snapshot; returns the checks made and the disagreements seen.
 */
export async function watched(pool: pg.Pool, mustBeZero: Record<string, string>, work: () => Promise<unknown>): Promise<{ checks: number; wrong: string[] }> {
  let done = false
  const wrong: string[] = []
  let checks = 0
  const sql = Object.entries(mustBeZero)
    .map(([name, expression]) => `(${expression})::int AS "${name}"`)
    .join(', ')
  const watcher = (async () => {
    while (!done) {
      // One statement sees one snapshot, so the numbers are of the same moment.
      const { rows } = await pool.query(`SELECT ${sql}`)
      checks++
      for (const [name, n] of Object.entries(rows[0])) if (n !== 0) wrong.push(`${name}: ${n}`)
    }
  })()
  try {
    await work()
  } finally {
    done = true
    await watcher
  }
  return { checks, wrong }
}

/** How many keys two queries of (key…, number) rows disagree on. */
export const keysDiffering = (rows: string, counters: string) => `SELECT count(*) FROM ((${rows} EXCEPT ${counters}) UNION ALL (${counters} EXCEPT ${rows})) x`

export const isDeadlock = (error: unknown) => (error as { code?: string }).code === '40P01'

/**
 * A storm's statements lock random rows in no particular order, so two of them may deadlock;
 * PostgreSQL then undoes one of them whole (the counters with it), and it is sent again.
 */
export function retrying(pool: pg.Pool) {
  return async (sql: string, params?: unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await pool.query(sql, params)
      } catch (error) {
        if (!isDeadlock(error) || attempt === 5) throw error
      }
    }
  }
}

/**
 * `times` transactions on one connection of `pool`, each running `work` and then rolled back,
 * also when a deadlock ended it early.
 */
export async function rolledBackTransactions(pool: pg.Pool, times: number, work: (client: pg.PoolClient, i: number) => Promise<void>) {
  const client = await pool.connect()
  try {
    for (let i = 0; i < times; i++) {
      await client.query('BEGIN')
      try {
        await work(client, i)
      } catch (error) {
        if (!isDeadlock(error)) throw error
      } finally {
        await client.query('ROLLBACK')
      }
    }
  } finally {
    client.release()
  }
}

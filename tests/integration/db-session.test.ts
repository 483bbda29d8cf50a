import { inject } from 'vitest'
import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { createDb, db } from '@/lib/db'
import { only } from '../helpers/present'

const SKEW_MS = 60_000

/** The run's database is set to Asia/Shanghai (global-setup); the app's sessions still run in UTC. */
describe('database sessions', () => {
  it('the test database really has a non-UTC time zone for plain connections', async () => {
    const raw = new pg.Client({ connectionString: inject('databaseUrl') })
    await raw.connect()
    const { rows } = await raw.query('SHOW timezone')
    await raw.end()
    expect(rows[0].TimeZone).toBe('Asia/Shanghai')
  })

  it("now() in the app's sessions is UTC wall time, so TIMESTAMP columns agree with Prisma", async () => {
    const { t } = only(await db().$queryRaw<{ t: Date }[]>`SELECT now()::timestamp AS t`)
    expect(Math.abs(t.getTime() - Date.now())).toBeLessThan(SKEW_MS)
    const own = createDb(inject('databaseUrl'), 1)
    const { zone } = only(await own.client.$queryRaw<{ zone: string }[]>`SELECT current_setting('TimeZone') AS zone`)
    await own.close()
    expect(zone).toBe('UTC')
  })
})

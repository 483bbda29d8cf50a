import pg from 'pg'
import { applyMigrations } from '@/lib/db/migrate'

/** The PostgreSQL server tests use (the machine's local one unless TEST_PG_URL says otherwise). */
export const SERVER_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'

function urlFor(database: string): string {
  const url = new URL(SERVER_URL)
  url.pathname = `/${database}`
  return url.toString()
}

/** Creates a fresh, migrated database for one test run and returns its URL. */
export async function createTestDatabase(prefix: string, options: { timeZone?: string } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`
  const admin = new pg.Client({ connectionString: SERVER_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  if (options.timeZone) await admin.query(`ALTER DATABASE "${name}" SET timezone = '${options.timeZone}'`)
  await admin.end()
  const url = urlFor(name)
  await applyMigrations(url)
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: SERVER_URL })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await client.end()
    },
  }
}

/**
 * Empties every table (but the migration history) so a test file starts clean. The ledger
 * and the audit log refuse TRUNCATE by trigger; only a superuser (the test server's
 * owner) can switch triggers off for its own transaction, as a replica applying changes
 * does, which no role of a deployment can.
 */
export async function truncateAll(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
    )
    if (!rows.length) return
    await client.query('BEGIN')
    await client.query('SET LOCAL session_replication_role = replica')
    await client.query(`TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`)
    await client.query('COMMIT')
  } finally {
    await client.end()
  }
}

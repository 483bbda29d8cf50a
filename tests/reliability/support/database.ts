// SQL on the e2e database (its URL is in .tmp/e2e-database-url while the e2e server runs), for
// specs that read back what the API must not have changed.
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { E2E_DATABASE_URL_FILE } from '../../e2e/support/constants'

/** Runs `work` with a client on the e2e database and closes it afterwards. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: readFileSync(E2E_DATABASE_URL_FILE, 'utf8').trim() })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

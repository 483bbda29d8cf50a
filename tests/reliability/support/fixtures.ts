// The reliability suite's test(): after every test, each user's ledger rows must add up to
// their balance and points (docs/RELIABILITY.md §1), checked with SQL on the e2e database.
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { expect, test as base } from '@playwright/test'
import { E2E_DATABASE_URL_FILE } from '../../e2e/support/constants'

type Mismatch = { username: string; balance: number; ledgerBalance: number; points: number; ledgerPoints: number }

/** Users whose balance or points differ from the sum of their ledger rows (in the e2e database unless told another). */
export async function ledgerMismatches(databaseUrl?: string): Promise<{ users: number; mismatches: Mismatch[] }> {
  const client = new pg.Client({ connectionString: databaseUrl ?? readFileSync(E2E_DATABASE_URL_FILE, 'utf8').trim() })
  await client.connect()
  try {
    const { rows } = await client.query<Mismatch & { total: string }>(`
      SELECT u.username, u.balance, u.points,
        COALESCE(SUM(l.amount) FILTER (WHERE l.account = 'BALANCE'), 0)::int AS "ledgerBalance",
        COALESCE(SUM(l.amount) FILTER (WHERE l.account = 'POINTS'), 0)::int AS "ledgerPoints",
        COUNT(*) OVER ()::text AS total
      FROM "User" u LEFT JOIN "LedgerEntry" l ON l."userId" = u.id
      GROUP BY u.id`)
    return {
      users: Number(rows[0]?.total ?? 0),
      mismatches: rows.filter((r) => r.balance !== r.ledgerBalance || r.points !== r.ledgerPoints).map(({ total: _, ...r }) => r),
    }
  } finally {
    await client.end()
  }
}

export const test = base.extend<{ ledgerAddsUp: void }>({
  ledgerAddsUp: [
    async ({}, use, testInfo) => {
      await use()
      const { users, mismatches } = await ledgerMismatches()
      console.log(`[ledger] ${testInfo.title}: ${users} users, ${mismatches.length} whose balance or points differ from their ledger`)
      expect(mismatches, 'balance and points equal the sum of each user’s ledger rows').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

/** One figure of the suite, printed so a run's output carries it (docs/RELIABILITY.md §3). */
export function figure(name: string, value: string | number): void {
  console.log(`[figure] ${name}: ${value}`)
}

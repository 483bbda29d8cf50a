import { db } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'

export const COMPACT_COUNTS_JOB = 'compact-counts'

/**
 * The console lists' totals are kept as rows of deltas that the triggers only ever insert
 * (migrations list_counts and other_list_counts say why); each table and the columns its
 * totals are filtered by.
 */
const COUNTERS: Record<string, string[]> = {
  CardCount: ['batchId', 'status'],
  WallWorkCount: ['status', 'featured', 'reported'],
  UserCount: ['role'],
  TaskStatusCount: ['type', 'status'],
  OrderCount: ['type', 'channel', 'status'],
  ChargeRecordCount: ['type', 'channel', 'status'],
}

/**
 * Folds each key's deltas into one row, so a total sums a few dozen rows however many
 * writes came before. One statement per table: a reader sees the deltas or their sum, never
 * both or neither; a delta committed meanwhile is not in the statement's snapshot and stays.
 */
export async function compactCounts(): Promise<void> {
  for (const [table, keys] of Object.entries(COUNTERS)) {
    const name = Prisma.raw(`"${table}"`)
    const columns = Prisma.raw(keys.map((k) => `"${k}"`).join(', '))
    await db().$executeRaw`
      WITH gone AS (
        DELETE FROM ${name} WHERE (${columns}) IN (SELECT ${columns} FROM ${name} GROUP BY ${columns} HAVING count(*) > 1)
        RETURNING ${columns}, "n"
      )
      INSERT INTO ${name} (${columns}, "n") SELECT ${columns}, sum("n") FROM gone GROUP BY ${columns} HAVING sum("n") <> 0`
  }
}

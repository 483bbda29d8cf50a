import { db } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'

export const COMPACT_COUNTS_JOB = 'compact-counts'

/**
 * The console lists' totals, the reports' day totals and the chat usage's hour totals are kept
 * as rows of deltas that the triggers only ever insert (migrations list_counts,
 * other_list_counts, day_totals and chat_usage_hours say why); each table, the columns its
 * totals are filtered by, and the columns summed.
 */
const COUNTERS: Record<string, { keys: string[]; sums: string[] }> = {
  CardCount: { keys: ['batchId', 'status'], sums: ['n'] },
  WallWorkCount: { keys: ['status', 'featured', 'reported'], sums: ['n'] },
  UserCount: { keys: ['role', 'invited'], sums: ['n'] },
  CommissionRecordCount: { keys: ['orderType', 'status'], sums: ['n'] },
  TaskStatusCount: { keys: ['type', 'status'], sums: ['n'] },
  OrderCount: { keys: ['type', 'channel', 'status'], sums: ['n'] },
  ChargeRecordCount: { keys: ['type', 'channel', 'status'], sums: ['n'] },
  ChargeDayTotal: { keys: ['day', 'type', 'channel'], sums: ['n', 'amount'] },
  UserDayCount: { keys: ['day'], sums: ['n'] },
  TaskDayCount: { keys: ['day', 'type', 'status'], sums: ['n'] },
  PointsDayTotal: { keys: ['day'], sums: ['issued', 'spent'] },
}

export const COMPACT_HOUR_TOTALS_JOB = 'compact-hour-totals'

/**
 * One row per hour, model and user that answered: a busy site's year is hundreds of thousands
 * of rows, which a fold groups whole (about a second), so they are folded hourly; an hour of
 * deltas is about a row per answer, which a reader sums at little cost.
 */
const HOUR_TOTALS: typeof COUNTERS = {
  ChatUsageHourTotal: { keys: ['hour', 'modelId', 'userId'], sums: ['messages', 'points'] },
}

const quoted = (columns: string[]) => Prisma.raw(columns.map((c) => `"${c}"`).join(', '))

/**
 * Folds each key's deltas into one row, so a total sums a few dozen rows however many
 * writes came before. One statement per table: a reader sees the deltas or their sum, never
 * both or neither; a delta committed meanwhile is not in the statement's snapshot and stays.
 */
export async function compactCounts(counters = COUNTERS): Promise<void> {
  for (const [table, { keys, sums }] of Object.entries(counters)) {
    const name = Prisma.raw(`"${table}"`)
    const columns = quoted(keys)
    const summed = Prisma.raw(sums.map((c) => `sum("${c}")`).join(', '))
    const someNonZero = Prisma.raw(sums.map((c) => `sum("${c}") <> 0`).join(' OR '))
    await db().$executeRaw`
      WITH gone AS (
        DELETE FROM ${name} WHERE (${columns}) IN (SELECT ${columns} FROM ${name} GROUP BY ${columns} HAVING count(*) > 1)
        RETURNING ${columns}, ${quoted(sums)}
      )
      INSERT INTO ${name} (${columns}, ${quoted(sums)}) SELECT ${columns}, ${summed} FROM gone GROUP BY ${columns} HAVING ${someNonZero}`
  }
}

export const compactHourTotals = () => compactCounts(HOUR_TOTALS)

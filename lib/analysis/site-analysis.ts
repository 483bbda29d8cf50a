import 'server-only'
import { db } from '@/lib/db'
import { beijingDayStart } from '@/lib/beijing-time'
import { chargeTotalsByDate } from '@/lib/payments/charge-records'

export type AnalysisDay = {
  date: string
  revenue: number
  revenueByType: Record<string, number>
  revenueByChannel: Record<string, number>
  newUsers: number
  tasksByType: Record<string, number>
  tasksByStatus: Record<string, number>
  pointsIssued: number
  pointsSpent: number
}

const DAY = `to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD')`

/**
 * /admin/analysis_mana: per Beijing day of the range, revenue (by type and channel), new users,
 * tasks (by type and by status) and points issued (every credit) versus spent (every debit).
 */
export async function siteAnalysis(from: string, to: string): Promise<{ days: AnalysisDay[] }> {
  const revenue = await chargeTotalsByDate(from, to)
  const start = beijingDayStart(from)
  const end = new Date(beijingDayStart(to).getTime() + 86_400_000)
  const [users, tasks, points] = await Promise.all([
    db().$queryRawUnsafe<{ day: string; n: bigint }[]>(
      `SELECT ${DAY} AS "day", COUNT(*) AS "n" FROM "User" WHERE "createdAt" >= $1 AND "createdAt" < $2 GROUP BY 1`,
      start,
      end,
    ),
    db().$queryRawUnsafe<{ day: string; type: string; status: string; n: bigint }[]>(
      `SELECT ${DAY} AS "day", "type"::text AS "type", "status"::text AS "status", COUNT(*) AS "n" FROM "Task" WHERE "createdAt" >= $1 AND "createdAt" < $2 GROUP BY 1, 2, 3`,
      start,
      end,
    ),
    db().$queryRawUnsafe<{ day: string; issued: bigint; spent: bigint }[]>(
      `SELECT ${DAY} AS "day", COALESCE(SUM("amount") FILTER (WHERE "amount" > 0), 0) AS "issued", COALESCE(-SUM("amount") FILTER (WHERE "amount" < 0), 0) AS "spent"
       FROM "LedgerEntry" WHERE "account" = 'POINTS' AND "createdAt" >= $1 AND "createdAt" < $2 GROUP BY 1`,
      start,
      end,
    ),
  ])
  const days = new Map<string, AnalysisDay>(
    revenue.map((r) => [
      r.date,
      {
        date: r.date,
        revenue: r.amount,
        revenueByType: r.byType,
        revenueByChannel: r.byChannel,
        newUsers: 0,
        tasksByType: {},
        tasksByStatus: {},
        pointsIssued: 0,
        pointsSpent: 0,
      },
    ]),
  )
  for (const u of users) {
    const d = days.get(u.day)
    if (d) d.newUsers = Number(u.n)
  }
  for (const t of tasks) {
    const d = days.get(t.day)
    if (!d) continue
    d.tasksByType[t.type] = (d.tasksByType[t.type] ?? 0) + Number(t.n)
    d.tasksByStatus[t.status] = (d.tasksByStatus[t.status] ?? 0) + Number(t.n)
  }
  for (const p of points) {
    const d = days.get(p.day)
    if (!d) continue
    d.pointsIssued = Number(p.issued)
    d.pointsSpent = Number(p.spent)
  }
  return { days: [...days.values()] }
}

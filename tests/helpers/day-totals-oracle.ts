// The console's revenue report and analysis as the queries they replaced made them, straight
// from the rows (lib/analysis/day-totals.ts reads the day totals the triggers keep now): the
// tests compare the routes' answers with these.
import { db } from '@/lib/db'
import { beijingDayStart } from '@/lib/beijing-time'

const DAY = `to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD')`

function range(from: string, to: string) {
  const start = beijingDayStart(from)
  const end = new Date(beijingDayStart(to).getTime() + 86_400_000)
  const dates = Array.from({ length: Math.round((end.getTime() - start.getTime()) / 86_400_000) }, (_, i) =>
    new Date(start.getTime() + i * 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10),
  )
  return { start, end, dates }
}

export async function chargeTotalsFromRows(from: string, to: string) {
  const { start, end, dates } = range(from, to)
  const rows = await db().$queryRawUnsafe<{ day: string; type: string; channel: string; amount: bigint; count: bigint }[]>(
    `SELECT ${DAY} AS "day", "type"::text AS "type", "channel"::text AS "channel", SUM("amount") AS "amount", COUNT(*) AS "count"
     FROM "ChargeRecord" WHERE "createdAt" >= $1 AND "createdAt" < $2 AND "status" = 'SUCCESS' AND "channel" <> 'BALANCE' GROUP BY 1, 2, 3`,
    start,
    end,
  )
  return dates.map((date) => {
    const day = { date, amount: 0, count: 0, byType: {} as Record<string, number>, byChannel: {} as Record<string, number> }
    for (const row of rows.filter((r) => r.day === date)) {
      day.amount += Number(row.amount)
      day.count += Number(row.count)
      day.byType[row.type] = (day.byType[row.type] ?? 0) + Number(row.amount)
      day.byChannel[row.channel] = (day.byChannel[row.channel] ?? 0) + Number(row.amount)
    }
    return day
  })
}

export async function siteAnalysisFromRows(from: string, to: string) {
  const { start, end } = range(from, to)
  const revenue = await chargeTotalsFromRows(from, to)
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
  return {
    days: revenue.map((r) => {
      const tasksByType: Record<string, number> = {}
      const tasksByStatus: Record<string, number> = {}
      for (const t of tasks.filter((t) => t.day === r.date)) {
        tasksByType[t.type] = (tasksByType[t.type] ?? 0) + Number(t.n)
        tasksByStatus[t.status] = (tasksByStatus[t.status] ?? 0) + Number(t.n)
      }
      const p = points.find((p) => p.day === r.date)
      return {
        date: r.date,
        revenue: r.amount,
        revenueByType: r.byType,
        revenueByChannel: r.byChannel,
        newUsers: Number(users.find((u) => u.day === r.date)?.n ?? 0),
        tasksByType,
        tasksByStatus,
        pointsIssued: Number(p?.issued ?? 0),
        pointsSpent: Number(p?.spent ?? 0),
      }
    }),
  }
}

import 'server-only'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest } from '@/lib/http/app-error'
import { beijingDayStart } from '@/lib/beijing-time'

export type DayTotals = { date: string; amount: number; count: number; byType: Record<string, number>; byChannel: Record<string, number> }

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

const MAX_DAYS = 366

/** Every Beijing day from `from` to `to`, both included. */
function daysOf(from: string, to: string): string[] {
  const start = beijingDayStart(from).getTime()
  const count = Math.round((beijingDayStart(to).getTime() - start) / 86_400_000) + 1
  if (count < 1) throw badRequest('结束日期不能早于开始日期')
  if (count > MAX_DAYS) throw badRequest(`一次最多查询 ${MAX_DAYS} 天`)
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10))
}

/**
 * One row of a day's totals: `part` says which. `charge`: paid records of a type (`a`) and
 * channel (`b`), how many (`n`) and their cents (`amount`); `user`: sign-ups (`n`); `task`:
 * tasks of a type (`a`) and status (`b`); `points`: points issued (`n`) and spent (`amount`).
 */
type DayRow = { part: 'charge' | 'user' | 'task' | 'points'; day: string; a: string | null; b: string | null; n: number; amount: number }

// The totals are rows of deltas the triggers of migration day_totals keep with every write,
// summed per key; a key whose deltas cancel out (a record moved out of SUCCESS) is no row.
type Part = (from: string, to: string) => Prisma.Sql
const inRange = (from: string, to: string) => Prisma.sql`"day" BETWEEN ${from}::date AND ${to}::date`
const charges: Part = (from, to) => Prisma.sql`
  SELECT 'charge' AS "part", "day", "type"::text AS "a", "channel"::text AS "b", sum("n")::float8 AS "n", sum("amount")::float8 AS "amount"
  FROM "ChargeDayTotal" WHERE ${inRange(from, to)} GROUP BY "day", "type", "channel" HAVING sum("n") <> 0 OR sum("amount") <> 0`
const users: Part = (from, to) => Prisma.sql`
  SELECT 'user', "day", NULL, NULL, sum("n")::float8, 0 FROM "UserDayCount" WHERE ${inRange(from, to)} GROUP BY "day" HAVING sum("n") <> 0`
const tasks: Part = (from, to) => Prisma.sql`
  SELECT 'task', "day", "type"::text, "status"::text, sum("n")::float8, 0
  FROM "TaskDayCount" WHERE ${inRange(from, to)} GROUP BY "day", "type", "status" HAVING sum("n") <> 0`
const points: Part = (from, to) => Prisma.sql`
  SELECT 'points', "day", NULL, NULL, sum("issued")::float8, sum("spent")::float8 FROM "PointsDayTotal" WHERE ${inRange(from, to)} GROUP BY "day"`

/** Each day of the range with its rows, in one statement. */
async function readDays(from: string, to: string, parts: Part[]): Promise<Map<string, DayRow[]>> {
  const byDay = new Map(daysOf(from, to).map((date) => [date, [] as DayRow[]]))
  const rows = await readRows<DayRow[]>(
    Prisma.sql`SELECT "part", to_char("day", 'YYYY-MM-DD') AS "day", "a", "b", "n", "amount" FROM (${Prisma.join(
      parts.map((part) => part(from, to)),
      ' UNION ALL ',
    )}) t`,
  )
  for (const row of rows) byDay.get(row.day)?.push(row)
  return byDay
}

/** Paid amounts per Beijing day (every day of the range, zero days included), by type and channel. */
export async function chargeTotalsByDate(from: string, to: string): Promise<DayTotals[]> {
  const days = await readDays(from, to, [charges])
  return [...days].map(([date, rows]) => chargeDay(date, rows))
}

function chargeDay(date: string, rows: DayRow[]): DayTotals {
  const day: DayTotals = { date, amount: 0, count: 0, byType: {}, byChannel: {} }
  for (const row of rows) {
    if (row.part !== 'charge') continue
    day.amount += row.amount
    day.count += row.n
    day.byType[row.a!] = (day.byType[row.a!] ?? 0) + row.amount
    day.byChannel[row.b!] = (day.byChannel[row.b!] ?? 0) + row.amount
  }
  return day
}

/**
 * /admin/analysis_mana: per Beijing day of the range, revenue (by type and channel), new users,
 * tasks (by type and by status) and points issued (every credit) versus spent (every debit),
 * in one statement over the day totals.
 */
export async function siteAnalysis(from: string, to: string): Promise<{ days: AnalysisDay[] }> {
  const days = await readDays(from, to, [charges, users, tasks, points])
  return { days: [...days].map(([date, rows]) => analysisDay(date, rows)) }
}

function analysisDay(date: string, rows: DayRow[]): AnalysisDay {
  const revenue = chargeDay(date, rows)
  const day: AnalysisDay = {
    date,
    revenue: revenue.amount,
    revenueByType: revenue.byType,
    revenueByChannel: revenue.byChannel,
    newUsers: 0,
    tasksByType: {},
    tasksByStatus: {},
    pointsIssued: 0,
    pointsSpent: 0,
  }
  for (const row of rows) {
    if (row.part === 'user') day.newUsers = row.n
    if (row.part === 'task') {
      day.tasksByType[row.a!] = (day.tasksByType[row.a!] ?? 0) + row.n
      day.tasksByStatus[row.b!] = (day.tasksByStatus[row.b!] ?? 0) + row.n
    }
    if (row.part === 'points') {
      day.pointsIssued = row.n
      day.pointsSpent = row.amount
    }
  }
  return day
}

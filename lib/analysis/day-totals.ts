import 'server-only'
import { dbPool } from '@/lib/db'
import { jsonMapText } from '@/lib/db/json-rows'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest } from '@/lib/http/app-error'
import { JsonList, JsonText } from '@/lib/http/json-list'
import { beijingDayStart } from '@/lib/beijing-time'
import { cachedAnswer } from '@/lib/signals/answer-cache'

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

/** Refuses a range that is no range, or longer than MAX_DAYS days (both ends included). */
function checkRange(from: string, to: string): void {
  const count = Math.round((beijingDayStart(to).getTime() - beijingDayStart(from).getTime()) / 86_400_000) + 1
  if (count < 1) throw badRequest('结束日期不能早于开始日期')
  if (count > MAX_DAYS) throw badRequest(`一次最多查询 ${MAX_DAYS} 天`)
}

// Revenue is money that came in: an order paid from the balance spends money counted when it
// was recharged (or that was never paid: an admin's grant, a commission), so it is left out.
// The day totals are rows of deltas the triggers of migration day_totals keep with every
// write; each part sums them per day (and key) over the range. A key whose deltas cancel out
// (a record moved out of SUCCESS) is left out, as a key with no rows.
const inRange = (from: string, to: string) => Prisma.sql`"day" BETWEEN ${from}::date AND ${to}::date`

/** Per day of the keys' rows (`day`, `key`, `value`): `{"key":value,…}`. */
const mapsByDay = (keyed: Prisma.Sql) => Prisma.sql`SELECT "day", ${jsonMapText(Prisma.sql`"key"`, Prisma.sql`"value"`)} AS "map" FROM (${keyed}) x GROUP BY 1`

const parts = (from: string, to: string) => Prisma.sql`
  "days" AS (SELECT d::date AS "day" FROM generate_series(${from}::date, ${to}::date, interval '1 day') d),
  "charges" AS (
    SELECT "day", "type"::text AS "type", "channel"::text AS "channel", sum("n") AS "n", sum("amount") AS "amount"
    FROM "ChargeDayTotal" WHERE ${inRange(from, to)} AND "channel" <> 'BALANCE' GROUP BY 1, 2, 3 HAVING sum("n") <> 0 OR sum("amount") <> 0
  ),
  "revenue" AS (SELECT "day", sum("amount") AS "amount", sum("n") AS "count" FROM "charges" GROUP BY 1),
  "revenueByType" AS (${mapsByDay(Prisma.sql`SELECT "day", "type" AS "key", sum("amount") AS "value" FROM "charges" GROUP BY 1, 2`)}),
  "revenueByChannel" AS (${mapsByDay(Prisma.sql`SELECT "day", "channel" AS "key", sum("amount") AS "value" FROM "charges" GROUP BY 1, 2`)})`

const NO_MAP = Prisma.sql`'{}'`

const textLength = (text: string) => text.length

/** Paid amounts per Beijing day (every day of the range, zero days included), by type and channel: the answer as PostgreSQL writes it. */
export async function chargeTotalsByDate(from: string, to: string): Promise<JsonList<DayTotals>> {
  checkRange(from, to)
  return new JsonList<DayTotals>(await cachedAnswer('reports', `revenue|${from}|${to}`, () => revenueText(from, to), textLength))
}

async function revenueText(from: string, to: string): Promise<string> {
  const [found] = await readRows<{ list: string }[]>(
    Prisma.sql`
    WITH ${parts(from, to)}
    SELECT '[' || string_agg(
      '{"date":"' || to_char(d."day", 'YYYY-MM-DD') || '","amount":' || coalesce(r."amount", 0) || ',"count":' || coalesce(r."count", 0)
      || ',"byType":' || coalesce(rt."map", ${NO_MAP}) || ',"byChannel":' || coalesce(rc."map", ${NO_MAP}) || '}',
      ',' ORDER BY d."day") || ']' AS "list"
    FROM "days" d
    LEFT JOIN "revenue" r ON r."day" = d."day"
    LEFT JOIN "revenueByType" rt ON rt."day" = d."day"
    LEFT JOIN "revenueByChannel" rc ON rc."day" = d."day"`,
    dbPool('generic'),
  )
  return found!.list
}

/**
 * /admin/analysis_mana: per Beijing day of the range, revenue (by type and channel), new users,
 * tasks (by type and by status) and points issued (every credit) versus spent (every debit),
 * in one statement over the day totals that writes the whole answer. Both reports are kept
 * by each web process until a day total changes (lib/signals/answer-cache.ts).
 */
export async function siteAnalysis(from: string, to: string): Promise<JsonText<{ days: AnalysisDay[] }>> {
  checkRange(from, to)
  return new JsonText(await cachedAnswer('reports', `analysis|${from}|${to}`, () => analysisText(from, to), textLength))
}

async function analysisText(from: string, to: string): Promise<string> {
  const [found] = await readRows<{ answer: string }[]>(
    Prisma.sql`
    WITH ${parts(from, to)},
    "taskKeys" AS (
      SELECT "day", "type"::text AS "type", "status"::text AS "status", sum("n") AS "n"
      FROM "TaskDayCount" WHERE ${inRange(from, to)} GROUP BY 1, 2, 3 HAVING sum("n") <> 0
    ),
    "tasksByType" AS (${mapsByDay(Prisma.sql`SELECT "day", "type" AS "key", sum("n") AS "value" FROM "taskKeys" GROUP BY 1, 2`)}),
    "tasksByStatus" AS (${mapsByDay(Prisma.sql`SELECT "day", "status" AS "key", sum("n") AS "value" FROM "taskKeys" GROUP BY 1, 2`)}),
    "users" AS (SELECT "day", sum("n") AS "n" FROM "UserDayCount" WHERE ${inRange(from, to)} GROUP BY 1 HAVING sum("n") <> 0),
    "points" AS (SELECT "day", sum("issued") AS "issued", sum("spent") AS "spent" FROM "PointsDayTotal" WHERE ${inRange(from, to)} GROUP BY 1)
    SELECT '{"days":[' || string_agg(
      '{"date":"' || to_char(d."day", 'YYYY-MM-DD') || '","revenue":' || coalesce(r."amount", 0)
      || ',"revenueByType":' || coalesce(rt."map", ${NO_MAP}) || ',"revenueByChannel":' || coalesce(rc."map", ${NO_MAP})
      || ',"newUsers":' || coalesce(u."n", 0) || ',"tasksByType":' || coalesce(tt."map", ${NO_MAP}) || ',"tasksByStatus":' || coalesce(ts."map", ${NO_MAP})
      || ',"pointsIssued":' || coalesce(p."issued", 0) || ',"pointsSpent":' || coalesce(p."spent", 0) || '}',
      ',' ORDER BY d."day") || ']}' AS "answer"
    FROM "days" d
    LEFT JOIN "revenue" r ON r."day" = d."day"
    LEFT JOIN "revenueByType" rt ON rt."day" = d."day"
    LEFT JOIN "revenueByChannel" rc ON rc."day" = d."day"
    LEFT JOIN "users" u ON u."day" = d."day"
    LEFT JOIN "tasksByType" tt ON tt."day" = d."day"
    LEFT JOIN "tasksByStatus" ts ON ts."day" = d."day"
    LEFT JOIN "points" p ON p."day" = d."day"`,
    dbPool('generic'),
  )
  return found!.answer
}

// The console's revenue report (GET /api/admin/charge-records/group-by-date) and analysis
// (GET /api/admin/analysis) read per-day totals that triggers keep in the same transaction as
// each write (migration day_totals). Under concurrent inserts, status changes, moved sign-up
// and creation times, deletions, rolled-back transactions and the worker folding the deltas,
// each day's totals must equal what the rows say in every snapshot, and the routes must answer
// what the queries over the rows they replaced answered.
import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import * as chargeGroup from '@/app/api/admin/charge-records/group-by-date/route'
import * as analysis from '@/app/api/admin/analysis/route'
import { compactCounts } from '@/lib/db/compact-counts'
import { callRoute, createUser } from '../helpers/call-route'
import { rawCall } from '../helpers/sign-in'
import { expectFail, expectOk } from '../helpers/expect-response'
import { chargeTotalsFromRows, siteAnalysisFromRows } from '../helpers/day-totals-oracle'
import { keysDiffering, rolledBackTransactions, stormPool, watched } from '../helpers/counter-storm'

const storm = stormPool()
const { q } = storm

// Per day and key, the rows' own totals and the day totals' agree; a key whose deltas cancel
// out is no row, as a key with no rows.
const MUST_BE_ZERO = {
  charges: keysDiffering(
    `SELECT beijing_day("createdAt"), type, channel, count(*)::bigint, sum(amount)::bigint FROM "ChargeRecord" WHERE status = 'SUCCESS' GROUP BY 1, 2, 3`,
    `SELECT day, type, channel, sum(n)::bigint, sum(amount)::bigint FROM "ChargeDayTotal" GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(amount) <> 0`,
  ),
  users: keysDiffering(
    `SELECT beijing_day("createdAt"), count(*)::bigint FROM "User" GROUP BY 1`,
    `SELECT day, sum(n)::bigint FROM "UserDayCount" GROUP BY 1 HAVING sum(n) <> 0`,
  ),
  tasks: keysDiffering(
    `SELECT beijing_day("createdAt"), type, status, count(*)::bigint FROM "Task" GROUP BY 1, 2, 3`,
    `SELECT day, type, status, sum(n)::bigint FROM "TaskDayCount" GROUP BY 1, 2, 3 HAVING sum(n) <> 0`,
  ),
  points: keysDiffering(
    `SELECT beijing_day("createdAt"), coalesce(sum(amount) FILTER (WHERE amount > 0), 0)::bigint, coalesce(-sum(amount) FILTER (WHERE amount < 0), 0)::bigint
     FROM "LedgerEntry" WHERE account = 'POINTS' GROUP BY 1`,
    `SELECT day, sum(issued)::bigint, sum(spent)::bigint FROM "PointsDayTotal" GROUP BY 1`,
  ),
}

// Rows created over five Beijing days from 1 March 2025, some on the edge of a day: 15:59:59.999
// UTC is the last moment of a Beijing day, 16:00 the first of the next.
const AT = `(timestamp '2025-03-01 00:00' + (g * 97 % 7200) * interval '1 minute' + (CASE WHEN g % 5 = 0 THEN interval '15 hours 59 minutes 59.999 seconds' WHEN g % 5 = 1 THEN interval '16 hours' ELSE interval '0' END))`

const addUsers = (tag: string, n: number) =>
  storm.pool.query(
    `INSERT INTO "User" (id, username, name, role, "createdAt", "updatedAt") SELECT $1 || g, $1 || g, $1 || g, 'USER', ${AT}, now() FROM generate_series(1, $2::int) g`,
    [tag, n],
  )
const addTasks = (owner: string, tag: string, n: number, client: Pick<pg.Pool, 'query'> = storm.pool) =>
  client.query(
    `INSERT INTO "Task" (id, "userId", type, status, stage, params, "modelId", "priceSnapshot", "chargedPoints", "deadlineAt", "createdAt", "updatedAt")
     SELECT $2 || g, $1, (CASE WHEN g % 3 = 0 THEN 'MJ_TEXT2IMG' ELSE 'SD_TEXT2IMG' END)::"TaskType", (CASE WHEN g % 4 = 0 THEN 'SUCCESS' ELSE 'PENDING' END)::"Status",
            'QUEUED', '{}', 'dtotal-model', '{}', 1, now(), ${AT}, now()
     FROM generate_series(1, $3::int) g`,
    [owner, tag, n],
  )
// Orders, and a charge record (paid or not) for every other one.
const addCharges = (owner: string, tag: string, n: number) =>
  storm.pool.query(
    `WITH o AS (
       INSERT INTO "Order" (id, "outTradeNo", "userId", type, "grant", subject, amount, channel, status, "expiresAt", "updatedAt")
       SELECT $2 || g, $2 || g, $1, (CASE WHEN g % 2 = 0 THEN 'POINTS' ELSE 'MEMBERSHIP' END)::"OrderType", '{}', 's', 100 + g,
              (CASE WHEN g % 3 = 0 THEN 'ALIPAY' ELSE 'WECHAT' END)::"PayChannel", 'SUCCESS', now(), now()
       FROM generate_series(1, $3::int) g RETURNING id, "userId", type, channel, amount)
     INSERT INTO "ChargeRecord" ("userId", "orderId", type, channel, amount, status, "createdAt", "updatedAt")
     SELECT "userId", id, type, channel, amount, (CASE WHEN amount % 3 = 0 THEN 'FAIL' ELSE 'SUCCESS' END)::"Status",
            timestamp '2025-03-01 00:00' + (amount * 131 % 7200) * interval '1 minute', now()
     FROM o WHERE amount % 2 = 0`,
    [owner, tag, n],
  )
// Points credited and taken back in pairs on other days, so the user's points (0) still equal its ledger's sum; balance entries are not points.
const addLedger = (owner: string, tag: string, n: number) =>
  storm.pool.query(
    `INSERT INTO "LedgerEntry" ("userId", account, kind, amount, "balanceAfter", reference, "createdAt")
     SELECT $1, (CASE WHEN g % 4 = 0 THEN 'BALANCE' ELSE 'POINTS' END)::"LedgerAccount", 'ADMIN_ADJUST', s * (g + 1), 0, $2 || g || ':' || s, ${AT} + (s + 1) * interval '9 hours'
     FROM generate_series(1, $3::int) g, (VALUES (1), (-1)) v(s)`,
    [owner, tag, n],
  )

const FROM = '2025-02-27'
const TO = '2025-03-08'

describe('the day totals of the revenue report and the analysis', () => {
  it('stay exact under concurrent writes, moved days, deletions, rollbacks and folding', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const owner = await createUser()
    await storm.pool.query(`INSERT INTO "AiModel" (id, name, backend, "updatedAt") VALUES ('dtotal-model', 'demo', 'demo', now()) ON CONFLICT DO NOTHING`)
    await addUsers('dtu0-', 100)
    await addTasks(owner.id, 'dtt0-', 200)
    await addCharges(owner.id, 'dto0-', 200)
    await addLedger(owner.id, 'dtl0-', 100)
    const pick = (table: string, extra = '') => `SELECT id FROM "${table}" WHERE id LIKE 'dt%' ${extra} ORDER BY random() LIMIT 7`
    const pickCharge = `SELECT id FROM "ChargeRecord" WHERE "orderId" LIKE 'dto%' ORDER BY random() LIMIT 7`

    const result = await watched(storm.pool, MUST_BE_ZERO, () =>
      Promise.all([
        (async () => {
          for (let i = 0; i < 30; i++) await compactCounts()
        })(),
        ...Array.from({ length: 4 }, async (_, i) => {
          await addUsers(`dtu${i + 1}-`, 50)
          await addTasks(owner.id, `dtt${i + 1}-`, 80)
          await addCharges(owner.id, `dto${i + 1}-`, 80)
          await addLedger(owner.id, `dtl${i + 1}-`, 40)
        }),
        ...Array.from({ length: 3 }, async () => {
          for (let i = 0; i < 12; i++) {
            await q(`UPDATE "User" SET "createdAt" = "createdAt" + interval '20 hours' WHERE id IN (${pick('User')})`)
            await q(`UPDATE "User" SET points = points + 0, name = name WHERE id IN (${pick('User')})`)
            await q(`UPDATE "Task" SET status = 'SUCCESS', stage = 'DONE' WHERE id IN (${pick('Task')})`)
            await q(`UPDATE "Task" SET status = 'FAIL', type = 'SD_IMG2IMG', "createdAt" = "createdAt" - interval '1 day' WHERE id IN (${pick('Task')})`)
            await q(`UPDATE "Task" SET progress = progress + 1 WHERE id IN (${pick('Task')})`)
            await q(`UPDATE "ChargeRecord" SET status = (CASE WHEN status = 'SUCCESS' THEN 'FAIL' ELSE 'SUCCESS' END)::"Status" WHERE id IN (${pickCharge})`)
            await q(`UPDATE "ChargeRecord" SET amount = amount + 7, channel = 'BALANCE' WHERE id IN (${pickCharge})`)
            await q(`UPDATE "ChargeRecord" SET "createdAt" = "createdAt" + interval '8 hours' WHERE id IN (${pickCharge})`)
          }
        }),
        q(`UPDATE "Task" SET status = 'CANCELED' WHERE id LIKE 'dtt0-1%'`),
        (async () => {
          for (let i = 0; i < 8; i++) {
            await q(`DELETE FROM "User" WHERE id IN (${pick('User')})`)
            await q(`DELETE FROM "Task" WHERE id IN (${pick('Task')})`)
            const gone = await q(`DELETE FROM "ChargeRecord" WHERE id IN (${pickCharge}) RETURNING "orderId"`)
            await q(`DELETE FROM "Order" WHERE id = ANY ($1)`, [gone.rows.map((r) => r.orderId)])
          }
        })(),
        rolledBackTransactions(storm.pool, 5, async (client, i) => {
          await client.query(`INSERT INTO "User" (id, username, name, role, "createdAt", "updatedAt") VALUES ($1, $1, $1, 'USER', '2025-03-02', now())`, [
            `dtrb${i}`,
          ])
          await client.query(`UPDATE "User" SET "createdAt" = '2025-03-04' WHERE id IN (${pick('User')})`)
          await addTasks(owner.id, `dtrbt${i}-`, 5, client)
          await client.query(`UPDATE "Task" SET status = 'SUCCESS' WHERE id IN (${pick('Task')})`)
          await client.query(`DELETE FROM "Task" WHERE id IN (${pick('Task')})`)
          await client.query(`UPDATE "ChargeRecord" SET status = 'SUCCESS', amount = amount * 2 WHERE id IN (${pickCharge})`)
          await client.query(
            `INSERT INTO "LedgerEntry" ("userId", account, kind, amount, "balanceAfter", reference, "createdAt") VALUES ($1, 'POINTS', 'ADMIN_ADJUST', 999, 0, $2, '2025-03-03')`,
            [owner.id, `dtrb${i}`],
          )
        }),
      ]),
    )
    console.log(`[figure] day totals checked against the rows during the storm: ${result.checks} snapshots, ${result.wrong.length} wrong`)
    expect(result.wrong).toEqual([])
    expect(result.checks).toBeGreaterThan(0)

    await compactCounts()
    const report = expectOk(await callRoute(chargeGroup.GET, { token: admin.token, query: { from: FROM, to: TO } })).list
    expect(report).toEqual(await chargeTotalsFromRows(FROM, TO))
    const chart = expectOk(await callRoute(analysis.GET, { token: admin.token, query: { from: FROM, to: TO } })).days
    expect(chart).toEqual((await siteAnalysisFromRows(FROM, TO)).days)
    // PostgreSQL writes both answers whole: compact JSON, the bytes JSON.stringify would send.
    for (const [handler, data] of [
      [chargeGroup.GET, { list: report }],
      [analysis.GET, { days: chart }],
    ] as const) {
      const raw = await rawCall(handler, { token: admin.token, query: { from: FROM, to: TO } })
      expect(raw.headers.get('content-type')).toBe('application/json')
      expect(await raw.text()).toBe(JSON.stringify({ success: true, data }))
    }
    // Every kind of figure was there to compare, on more than one day.
    const busy = (pick: (d: (typeof chart)[number]) => number) => chart.filter((d: (typeof chart)[number]) => pick(d) > 0).length
    expect(busy((d) => d.revenue)).toBeGreaterThan(2)
    expect(busy((d) => d.newUsers)).toBeGreaterThan(2)
    expect(busy((d) => d.pointsIssued)).toBeGreaterThan(2)
    expect(busy((d) => d.pointsSpent)).toBeGreaterThan(2)
    expect(busy((d) => Object.keys(d.tasksByStatus).length)).toBeGreaterThan(2)
    expect(report.filter((d: { count: number }) => d.count > 0).length).toBeGreaterThan(2)
  })

  it('refuse a range that is no range, and a day that does not exist, with nothing read', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    for (const route of [chargeGroup.GET, analysis.GET]) {
      expectFail(await callRoute(route, { token: admin.token, query: { from: '2026-01-02', to: '2026-01-01' } }), 400, /结束日期不能早于开始日期/)
      expectFail(await callRoute(route, { token: admin.token, query: { from: '2025-01-01', to: '2026-01-02' } }), 400, /一次最多查询 366 天/)
      expectFail(await callRoute(route, { token: admin.token, query: { from: '2026-02-30', to: '2026-03-01' } }), 400, /日期不存在/)
      expectFail(await callRoute(route, { token: admin.token, query: { from: '2026-01-01', to: '2026-13-01' } }), 400, /日期不存在/)
      const outOfRange: [string, string][] = [
        ['0000-01-01', '0000-01-02'],
        ['9999-12-31', '9999-12-31'],
      ]
      for (const [from, to] of outOfRange)
        expectFail(await callRoute(route, { token: admin.token, query: { from, to } }), 400, /日期需在 2000-01-01 到 2999-12-31 之间/)
      expect(expectOk(await callRoute(route, { token: admin.token, query: { from: '2024-02-29', to: '2024-03-01' } }))).toBeTruthy()
    }
  })
})

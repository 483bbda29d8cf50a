// The console's 总计 N 条 for users, tasks, orders and charge records comes from counters that
// triggers keep in the same transaction as each write (migration other_list_counts). Under
// concurrent inserts, status and role changes, bulk updates, deletions and rolled-back
// transactions, each counter must equal count(*) in every snapshot, and every filter's total
// must be exact afterwards (searches, users and dates count their matches).
import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import * as usersRoute from '@/app/api/users/route'
import * as adminTasksRoute from '@/app/api/admin/tasks/route'
import * as adminOrdersRoute from '@/app/api/admin/orders/route'
import * as chargeRecordsRoute from '@/app/api/admin/charge-records/route'
import * as chargeStatusRoute from '@/app/api/admin/charge-records/[id]/status/route'
import { db } from '@/lib/db'
import { compactCounts } from '@/lib/db/compact-counts'
import { callRoute, createUser } from '../helpers/call-route'
import { keysDiffering, rolledBackTransactions, stormPool, watched } from '../helpers/counter-storm'

const storm = stormPool()
const { q } = storm

const MUST_BE_ZERO = {
  users: `(SELECT count(*) FROM "User") - (SELECT coalesce(sum(n), 0) FROM "UserCount")`,
  tasks: `(SELECT count(*) FROM "Task") - (SELECT coalesce(sum(n), 0) FROM "TaskStatusCount")`,
  orders: `(SELECT count(*) FROM "Order") - (SELECT coalesce(sum(n), 0) FROM "OrderCount")`,
  charges: `(SELECT count(*) FROM "ChargeRecord") - (SELECT coalesce(sum(n), 0) FROM "ChargeRecordCount")`,
  // Per key too: a change moved between keys must leave both right, not only the sum.
  userKeys: keysDiffering(
    `SELECT role, "inviterId" IS NOT NULL, count(*) FROM "User" GROUP BY 1, 2`,
    `SELECT role, invited, sum(n) FROM "UserCount" GROUP BY 1, 2 HAVING sum(n) <> 0`,
  ),
  taskKeys: keysDiffering(
    `SELECT type, status, count(*) FROM "Task" GROUP BY 1, 2`,
    `SELECT type, status, sum(n) FROM "TaskStatusCount" GROUP BY 1, 2 HAVING sum(n) <> 0`,
  ),
}

const addUsers = (tag: string, n: number) =>
  storm.pool.query(
    `INSERT INTO "User" (id, username, name, role, "updatedAt") SELECT $1 || g, $1 || g, $1 || g, 'USER', now() FROM generate_series(1, $2::int) g`,
    [tag, n],
  )
const addTasks = (owner: string, tag: string, n: number, client: Pick<pg.Pool, 'query'> = storm.pool) =>
  client.query(
    `INSERT INTO "Task" (id, "userId", type, status, stage, params, "modelId", "priceSnapshot", "chargedPoints", "deadlineAt", "updatedAt")
     SELECT $2 || g, $1, (CASE WHEN g % 3 = 0 THEN 'MJ_TEXT2IMG' ELSE 'SD_TEXT2IMG' END)::"TaskType", 'PENDING', 'QUEUED', '{}', 'ocount-model', '{}', 1, now(), now()
     FROM generate_series(1, $3::int) g`,
    [owner, tag, n],
  )
// Orders, and a charge record for every other one (a charge record needs its order).
const addOrders = (owner: string, tag: string, n: number) =>
  storm.pool.query(
    `WITH o AS (
       INSERT INTO "Order" (id, "outTradeNo", "userId", type, "grant", subject, amount, channel, status, "expiresAt", "updatedAt")
       SELECT $2 || g, $2 || g, $1, (CASE WHEN g % 2 = 0 THEN 'POINTS' ELSE 'BALANCE' END)::"OrderType", '{}', 's', 100,
              (CASE WHEN g % 3 = 0 THEN 'ALIPAY' ELSE 'WECHAT' END)::"PayChannel", (CASE WHEN g % 2 = 0 THEN 'SUCCESS' ELSE 'PENDING' END)::"Status", now(), now()
       FROM generate_series(1, $3::int) g RETURNING id, "userId", type, channel, status)
     INSERT INTO "ChargeRecord" ("userId", "orderId", type, channel, amount, "updatedAt") SELECT "userId", id, type, channel, 100, now() FROM o WHERE status = 'SUCCESS'`,
    [owner, tag, n],
  )

describe('user, task, order and charge-record counts', () => {
  it('are folded by the worker into one row per key, the totals unchanged', async () => {
    const owner = await createUser()
    await storm.pool.query(`INSERT INTO "AiModel" (id, name, backend, "updatedAt") VALUES ('ocount-model', 'demo', 'demo', now()) ON CONFLICT DO NOTHING`)
    for (let i = 0; i < 5; i++) await addTasks(owner.id, `ocfold${i}-`, 3)
    await storm.pool.query(`UPDATE "Task" SET status = 'SUCCESS' WHERE id LIKE 'ocfold1-%'`)
    const perKey = `SELECT type, status, count(*)::int AS "rows", sum(n)::int AS n FROM "TaskStatusCount" GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`
    const before = (await storm.pool.query(perKey)).rows
    expect(before.some((r) => r.rows > 1)).toBe(true)
    await compactCounts()
    const after = (await storm.pool.query(perKey)).rows
    expect(after.map((r) => r.rows)).toEqual(after.map(() => 1))
    expect(after.map(({ type, status, n }) => ({ type, status, n }))).toEqual(before.map(({ type, status, n }) => ({ type, status, n })))
    expect((await storm.pool.query(`SELECT (${MUST_BE_ZERO.taskKeys})::int AS wrong`)).rows[0].wrong).toBe(0)
  })

  it('never make a submit and a refund of one user wait for each other', async () => {
    const owner = await createUser()
    await storm.pool.query(`INSERT INTO "AiModel" (id, name, backend, "updatedAt") VALUES ('ocount-model', 'demo', 'demo', now()) ON CONFLICT DO NOTHING`)
    await addTasks(owner.id, 'oclock-a', 1)
    const refund = await storm.pool.connect()
    const submit = await storm.pool.connect()
    try {
      // A refund: the task ends (its counters move), then the ledger takes the user's row.
      await refund.query('BEGIN')
      await refund.query(`UPDATE "Task" SET status = 'FAIL', stage = 'DONE' WHERE id = 'oclock-a1'`)
      // A submit: the user's row, then a new task of the same type, pending. Had the refund
      // locked a counter row for (type, PENDING), this would wait for it while the refund
      // waits for the user's row: a deadlock. The lock timeout turns a wait into a failure.
      await submit.query('BEGIN')
      await submit.query(`SET LOCAL lock_timeout = '2s'`)
      await submit.query(`SELECT 1 FROM "User" WHERE id = $1 FOR UPDATE`, [owner.id])
      await addTasks(owner.id, 'oclock-b', 1, submit)
      const credit = refund.query(`UPDATE "User" SET points = points + 1 WHERE id = $1`, [owner.id])
      await submit.query('COMMIT')
      await credit
      await refund.query('COMMIT')
    } finally {
      await refund.query('ROLLBACK').catch(() => undefined)
      await submit.query('ROLLBACK').catch(() => undefined)
      refund.release()
      submit.release()
    }
    const { rows } = await storm.pool.query(`SELECT (${MUST_BE_ZERO.taskKeys})::int AS wrong`)
    expect(rows[0].wrong).toBe(0)
  })

  it('stay exact under concurrent inserts, status changes, bulk updates, deletions and rollbacks', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const owner = await createUser({ name: '计数用户' })
    await storm.pool.query(`INSERT INTO "AiModel" (id, name, backend, "updatedAt") VALUES ('ocount-model', 'demo', 'demo', now()) ON CONFLICT DO NOTHING`)
    await addUsers('ocu0-', 100)
    await addTasks(owner.id, 'oct0-', 200)
    await addOrders(owner.id, 'oco0-', 200)
    const pick = (table: string, extra = '') => `SELECT id FROM "${table}" WHERE id LIKE 'oc%' ${extra} ORDER BY random() LIMIT 7`

    // The charge records the console changes meanwhile (the deletions leave them alone).
    const audited = (await storm.pool.query(`SELECT id FROM "ChargeRecord" ORDER BY id LIMIT 5`)).rows.map((r) => r.id as number)
    const result = await watched(storm.pool, MUST_BE_ZERO, () =>
      Promise.all([
        // The worker folding the deltas, all the while.
        (async () => {
          for (let i = 0; i < 30; i++) await compactCounts()
        })(),
        // Inserts, one statement each of many rows.
        ...Array.from({ length: 4 }, async (_, i) => {
          await addUsers(`ocu${i + 1}-`, 50)
          await addTasks(owner.id, `oct${i + 1}-`, 80)
          await addOrders(owner.id, `oco${i + 1}-`, 80)
        }),
        // Role, status, type and channel changes, some bulk, some of columns that are not counted.
        ...Array.from({ length: 3 }, async () => {
          for (let i = 0; i < 12; i++) {
            await q(`UPDATE "User" SET role = (CASE WHEN role = 'USER' THEN 'MANAGER' ELSE 'USER' END)::"Role" WHERE id IN (${pick('User')})`)
            await q(`UPDATE "User" SET points = points + 1 WHERE id IN (${pick('User')})`)
            await q(`UPDATE "Task" SET status = 'SUCCESS', stage = 'DONE' WHERE id IN (${pick('Task')})`)
            await q(`UPDATE "Task" SET status = 'FAIL', type = 'SD_IMG2IMG' WHERE id IN (${pick('Task')})`)
            await q(`UPDATE "Task" SET progress = progress + 1 WHERE id IN (${pick('Task')})`)
            await q(`UPDATE "Order" SET status = 'CANCELED' WHERE id IN (${pick('Order', `AND status = 'PENDING'`)})`)
            await q(`UPDATE "Order" SET channel = 'BALANCE' WHERE id IN (${pick('Order')})`)
            await q(`UPDATE "ChargeRecord" SET status = 'FAIL' WHERE id IN (SELECT id FROM "ChargeRecord" ORDER BY random() LIMIT 7)`)
          }
        }),
        // One bulk update of every task of a batch, and one of every pending order.
        q(`UPDATE "Task" SET status = 'CANCELED' WHERE id LIKE 'oct0-1%'`),
        q(`UPDATE "Order" SET status = 'FAIL' WHERE id LIKE 'oco0-3%' AND status = 'PENDING'`),
        // The console's own status call, audited.
        (async () => {
          for (const id of audited) {
            const res = await callRoute(chargeStatusRoute.POST, { token: admin.token, params: { id: String(id) }, body: { status: 'CANCELED', note: '测试' } })
            expect(res.status).toBe(200)
          }
        })(),
        // Deletions: users without tasks or orders, tasks, charge records and then their orders.
        (async () => {
          for (let i = 0; i < 8; i++) {
            await q(`DELETE FROM "User" WHERE id IN (${pick('User')})`)
            await q(`DELETE FROM "Task" WHERE id IN (${pick('Task')})`)
            const gone = await q(
              `DELETE FROM "ChargeRecord" WHERE id IN (SELECT id FROM "ChargeRecord" WHERE id <> ALL ($1) ORDER BY random() LIMIT 3) RETURNING "orderId"`,
              [audited],
            )
            await q(`DELETE FROM "Order" WHERE id = ANY ($1)`, [gone.rows.map((r) => r.orderId)])
            await storm.pool.query(
              `DELETE FROM "Order" WHERE id IN (${pick('Order', `AND NOT EXISTS (SELECT 1 FROM "ChargeRecord" c WHERE c."orderId" = "Order".id)`)})`,
            )
          }
        })(),
        // Transactions that insert, move and delete, then roll back.
        rolledBackTransactions(storm.pool, 5, async (client, i) => {
          await client.query(`INSERT INTO "User" (id, username, name, role, "updatedAt") VALUES ($1, $1, $1, 'ADMIN', now())`, [`ocrb${i}`])
          await client.query(`UPDATE "User" SET role = 'ADMIN' WHERE id IN (${pick('User')})`)
          await client.query(`UPDATE "Task" SET status = 'SUCCESS' WHERE id IN (${pick('Task')})`)
          await client.query(`DELETE FROM "Task" WHERE id IN (${pick('Task')})`)
          await client.query(`UPDATE "Order" SET status = 'SUCCESS', type = 'MEMBERSHIP' WHERE id IN (${pick('Order')})`)
          await client.query(`UPDATE "ChargeRecord" SET channel = 'BALANCE' WHERE id IN (SELECT id FROM "ChargeRecord" ORDER BY random() LIMIT 7)`)
        }),
      ]),
    )
    console.log(`[figure] user/task/order/charge counters checked against count(*) during the storm: ${result.checks} snapshots, ${result.wrong.length} wrong`)
    expect(result.wrong).toEqual([])
    expect(result.checks).toBeGreaterThan(0)

    const totalOf = async (handler: Parameters<typeof callRoute>[0], query: Record<string, string>) => {
      const res = await callRoute(handler, { token: admin.token, query: { ...query, page: 1, pageSize: 20 } })
      expect(res.status).toBe(200)
      return res.body.data.total as number
    }

    for (const role of [undefined, 'USER', 'MANAGER', 'ADMIN'] as const) {
      expect(await totalOf(usersRoute.GET, role ? { role } : {}), `users ${role}`).toBe(await db().user.count({ where: role ? { role } : {} }))
    }
    expect(await totalOf(usersRoute.GET, { keyword: 'OCU1-' })).toBe(await db().user.count({ where: { username: { contains: 'ocu1-', mode: 'insensitive' } } }))

    const taskFilters: Array<{ type?: 'SD_TEXT2IMG' | 'SD_IMG2IMG' | 'MJ_TEXT2IMG'; status?: 'PENDING' | 'SUCCESS' | 'FAIL' | 'CANCELED' }> = [{}]
    for (const status of ['PENDING', 'SUCCESS', 'FAIL', 'CANCELED'] as const) taskFilters.push({ status }, { status, type: 'MJ_TEXT2IMG' })
    for (const type of ['SD_TEXT2IMG', 'SD_IMG2IMG', 'MJ_TEXT2IMG'] as const) taskFilters.push({ type })
    for (const filter of taskFilters) expect(await totalOf(adminTasksRoute.GET, filter), JSON.stringify(filter)).toBe(await db().task.count({ where: filter }))
    expect(await totalOf(adminTasksRoute.GET, { user: '计数' })).toBe(await db().task.count({ where: { userId: owner.id } }))
    expect(await totalOf(adminTasksRoute.GET, { user: owner.id, status: 'FAIL' })).toBe(await db().task.count({ where: { userId: owner.id, status: 'FAIL' } }))
    expect(await totalOf(adminTasksRoute.GET, { from: '2000-01-01', to: '2999-01-01' })).toBe(await db().task.count())

    const orderFilters: Array<{
      type?: 'POINTS' | 'BALANCE' | 'MEMBERSHIP'
      channel?: 'WECHAT' | 'ALIPAY' | 'BALANCE'
      status?: 'SUCCESS' | 'PENDING' | 'FAIL' | 'CANCELED'
    }> = [{}]
    for (const status of ['SUCCESS', 'PENDING', 'FAIL', 'CANCELED'] as const) orderFilters.push({ status }, { status, channel: 'WECHAT' })
    for (const channel of ['WECHAT', 'ALIPAY', 'BALANCE'] as const) orderFilters.push({ channel }, { channel, type: 'POINTS' })
    for (const type of ['POINTS', 'BALANCE', 'MEMBERSHIP'] as const) orderFilters.push({ type }, { type, channel: 'ALIPAY', status: 'SUCCESS' })
    for (const filter of orderFilters) {
      expect(await totalOf(adminOrdersRoute.GET, filter), `orders ${JSON.stringify(filter)}`).toBe(await db().order.count({ where: filter }))
      expect(await totalOf(chargeRecordsRoute.GET, filter), `charges ${JSON.stringify(filter)}`).toBe(await db().chargeRecord.count({ where: filter }))
    }
    expect(await totalOf(adminOrdersRoute.GET, { user: owner.id })).toBe(await db().order.count({ where: { userId: owner.id } }))
    expect(await totalOf(adminOrdersRoute.GET, { user: 'oco1-5' })).toBe(await db().order.count({ where: { outTradeNo: 'oco1-5' } }))
    expect(await totalOf(chargeRecordsRoute.GET, { userId: owner.id, status: 'SUCCESS' })).toBe(
      await db().chargeRecord.count({ where: { userId: owner.id, status: 'SUCCESS' } }),
    )
    expect(await totalOf(chargeRecordsRoute.GET, { from: '2000-01-01', to: '2999-01-01' })).toBe(await db().chargeRecord.count())
    // Something moved into every kind of key the lists filter on.
    expect(await db().task.count({ where: { status: 'FAIL', type: 'SD_IMG2IMG' } })).toBeGreaterThan(0)
    expect(await db().user.count({ where: { role: 'MANAGER' } })).toBeGreaterThan(0)
  })
})

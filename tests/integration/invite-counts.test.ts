// The console's invite list says 总计 N 条 of invited users and of commission records from
// counters that triggers keep in the same transaction as each write (migration invite_counts).
// Under concurrent bindings, roles changing, inviters deleted (their invitees' inviterId set to
// null), commission records written, taken back, retyped and deleted, rolled-back transactions
// and the worker folding the deltas, the counters must equal count(*) in every snapshot, and
// every filter's total must be exact afterwards.
import { describe, expect, it } from 'vitest'
import * as commissionRecords from '@/app/api/admin/commission/records/route'
import * as invites from '@/app/api/admin/invites/route'
import { db } from '@/lib/db'
import { compactCounts } from '@/lib/db/compact-counts'
import { COMMISSION_ORDER_TYPES } from '@/lib/invites/order-types'
import { callRoute, createUser } from '../helpers/call-route'
import { keysDiffering, rolledBackTransactions, stormPool, watched } from '../helpers/counter-storm'
import { expectOk } from '../helpers/expect-response'

const storm = stormPool()
const { q } = storm

const MUST_BE_ZERO = {
  invited: `(SELECT count(*) FROM "User" WHERE "inviterId" IS NOT NULL) - (SELECT coalesce(sum(n), 0) FROM "UserCount" WHERE invited)`,
  userKeys: keysDiffering(
    `SELECT role, "inviterId" IS NOT NULL, count(*) FROM "User" GROUP BY 1, 2`,
    `SELECT role, invited, sum(n) FROM "UserCount" GROUP BY 1, 2 HAVING sum(n) <> 0`,
  ),
  commissionKeys: keysDiffering(
    `SELECT "orderType", status, count(*) FROM "CommissionRecord" GROUP BY 1, 2`,
    `SELECT "orderType", status, sum(n) FROM "CommissionRecordCount" GROUP BY 1, 2 HAVING sum(n) <> 0`,
  ),
}

// Users, every other one invited by `inviter`.
const addUsers = (inviter: string, tag: string, n: number) =>
  storm.pool.query(
    `INSERT INTO "User" (id, username, name, role, "inviterId", "invitedAt", "updatedAt")
     SELECT $2 || g, $2 || g, $2 || g, 'USER', CASE WHEN g % 2 = 0 THEN $1 END, CASE WHEN g % 2 = 0 THEN now() END, now() FROM generate_series(1, $3::int) g`,
    [inviter, tag, n],
  )
// Paid orders of `invitee`, each with its commission record for `inviter`.
const addCommission = (inviter: string, invitee: string, tag: string, n: number) =>
  storm.pool.query(
    `WITH o AS (
       INSERT INTO "Order" (id, "outTradeNo", "userId", type, "grant", subject, amount, channel, status, "expiresAt", "updatedAt")
       SELECT $3 || g, $3 || g, $2, (CASE WHEN g % 2 = 0 THEN 'POINTS' ELSE 'MEMBERSHIP' END)::"OrderType", '{}', 's', 100, 'WECHAT', 'SUCCESS', now(), now()
       FROM generate_series(1, $4::int) g RETURNING id, type)
     INSERT INTO "CommissionRecord" ("orderId", "inviterId", "inviteeId", "orderType", "orderAmount", rate, account, amount, "updatedAt")
     SELECT id, $1, $2, type, 100, 10, 'POINTS', 10, now() FROM o`,
    [inviter, invitee, tag, n],
  )

describe('invited users and commission records counts', () => {
  it('stay exact under concurrent bindings, deleted inviters, taken-back records, deletions and rollbacks', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const inviter = await createUser({ name: '邀请计数人' })
    const invitee = await createUser()
    await addUsers(inviter.id, 'icu0-', 100)
    await addCommission(inviter.id, invitee.id, 'ico0-', 100)
    // Inviters of their own, deleted during the storm: their invitees lose the binding.
    await addUsers(inviter.id, 'icdel-', 6)
    for (let i = 1; i <= 6; i++) await addUsers(`icdel-${i}`, `icdel${i}u-`, 6)
    const pick = (extra = '') => `SELECT id FROM "User" WHERE id LIKE 'icu%' ${extra} ORDER BY random() LIMIT 7`
    const pickRecord = `SELECT id FROM "CommissionRecord" WHERE "orderId" LIKE 'ico%' ORDER BY random() LIMIT 5`

    const result = await watched(storm.pool, MUST_BE_ZERO, () =>
      Promise.all([
        (async () => {
          for (let i = 0; i < 30; i++) await compactCounts()
        })(),
        ...Array.from({ length: 3 }, async (_, i) => {
          await addUsers(inviter.id, `icu${i + 1}-`, 50)
          await addCommission(inviter.id, invitee.id, `ico${i + 1}-`, 40)
        }),
        ...Array.from({ length: 3 }, async () => {
          for (let i = 0; i < 12; i++) {
            await q(`UPDATE "User" SET "inviterId" = $1, "invitedAt" = now() WHERE id IN (${pick(`AND "inviterId" IS NULL`)})`, [inviter.id])
            await q(`UPDATE "User" SET "inviterId" = NULL WHERE id IN (${pick()})`)
            await q(`UPDATE "User" SET role = 'MANAGER' WHERE id IN (${pick()})`)
            await q(`UPDATE "User" SET points = points WHERE id IN (${pick()})`)
            await q(`UPDATE "CommissionRecord" SET status = 'CANCELED', note = '已收回' WHERE id IN (${pickRecord})`)
            await q(`UPDATE "CommissionRecord" SET "orderType" = 'CHAT_MEMBERSHIP' WHERE id IN (${pickRecord})`)
          }
        }),
        (async () => {
          for (let i = 1; i <= 6; i++) {
            await q(`DELETE FROM "User" WHERE id = $1`, [`icdel-${i}`])
            const gone = await q(`DELETE FROM "CommissionRecord" WHERE id IN (${pickRecord}) RETURNING "orderId"`)
            await q(`DELETE FROM "Order" WHERE id = ANY ($1)`, [gone.rows.map((r) => r.orderId)])
          }
        })(),
        rolledBackTransactions(storm.pool, 5, async (client, i) => {
          await client.query(`INSERT INTO "User" (id, username, name, role, "inviterId", "updatedAt") VALUES ($1, $1, $1, 'USER', $2, now())`, [
            `icrb${i}`,
            inviter.id,
          ])
          await client.query(`UPDATE "User" SET "inviterId" = NULL WHERE id IN (${pick()})`)
          await client.query(`UPDATE "CommissionRecord" SET status = 'CANCELED' WHERE id IN (${pickRecord})`)
          await client.query(`DELETE FROM "CommissionRecord" WHERE id IN (${pickRecord})`)
        }),
      ]),
    )
    console.log(
      `[figure] invited-user and commission counters checked against count(*) during the storm: ${result.checks} snapshots, ${result.wrong.length} wrong`,
    )
    expect(result.wrong).toEqual([])
    expect(result.checks).toBeGreaterThan(0)
    expect(await db().user.count({ where: { id: { startsWith: 'icdel' }, inviterId: { not: null } } })).toBe(0)

    const totalOf = async (handler: Parameters<typeof callRoute>[0], query: Record<string, string>) =>
      expectOk(await callRoute(handler, { token: admin.token, query: { ...query, page: 1, pageSize: 20 } })).total as number
    expect(await totalOf(invites.GET, {})).toBe(await db().user.count({ where: { inviterId: { not: null } } }))
    expect(await totalOf(invites.GET, { keyword: '邀请计数' })).toBe(await db().user.count({ where: { inviterId: inviter.id } }))
    for (const status of [undefined, 'SUCCESS', 'CANCELED'] as const) {
      for (const orderType of [undefined, ...COMMISSION_ORDER_TYPES]) {
        const filter = { ...(status ? { status } : {}), ...(orderType ? { orderType } : {}) }
        expect(await totalOf(commissionRecords.GET, filter), JSON.stringify(filter)).toBe(await db().commissionRecord.count({ where: filter }))
      }
    }
    expect(await totalOf(commissionRecords.GET, { keyword: inviter.id, status: 'CANCELED' })).toBe(
      await db().commissionRecord.count({ where: { inviterId: inviter.id, status: 'CANCELED' } }),
    )
    expect(await db().commissionRecord.count({ where: { status: 'CANCELED', orderType: 'CHAT_MEMBERSHIP' } })).toBeGreaterThan(0)
  })
})

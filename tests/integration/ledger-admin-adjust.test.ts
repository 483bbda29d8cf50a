// POST /api/admin/user/{id}/adjust (ADMIN moves a user's points/balance through the ledger,
// audited, never below zero; exactly once per Idempotency-Key), GET /api/users/ledger (the caller's own rows, cursor paged)
// and the rule that users with money history cannot be deleted.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import * as adjustRoute from '@/app/api/admin/user/[id]/adjust/route'
import * as adminUserItem from '@/app/api/admin/user/[id]/route'
import * as ledgerRoute from '@/app/api/users/ledger/route'
import { listLedger } from '@/lib/ledger/list-ledger'
import { db } from '@/lib/db'
import { newRequestId } from '@/lib/api-client/request-id'
import { callRoute } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { expectLedgerInvariants, quickUser, type QuickUser } from '../helpers/ledger-fixtures'

const ADMIN_IP = '10.9.8.7'

/** Each call is a new adjustment (a fresh Idempotency-Key, made as the dialog makes it) unless `key` names one (null: none at all). */
const adjust = (actor: QuickUser, id: string, body: unknown, key: string | null = newRequestId()) =>
  callRoute(adjustRoute.POST, { token: actor.token, params: { id }, body, ip: ADMIN_IP, headers: key === null ? {} : { 'idempotency-key': key } })
const ledgerOf = (user: QuickUser, query: Record<string, string | number> = {}) => callRoute(ledgerRoute.GET, { token: user.token, query })
const columns = (id: string) => db().user.findUniqueOrThrow({ where: { id }, select: { points: true, balance: true } })
const rowsOf = (id: string) => db().ledgerEntry.findMany({ where: { userId: id }, orderBy: { id: 'asc' } })
const auditsOf = (id: string) => db().adminAuditLog.findMany({ where: { targetType: 'User', targetId: id }, orderBy: { id: 'asc' } })

/** Everything an adjustment could have written, to compare before and after a refused call. */
async function snapshot(id: string) {
  return {
    columns: await db().user.findUnique({ where: { id }, select: { points: true, balance: true } }),
    ledger: await db().ledgerEntry.count(),
    audit: await db().adminAuditLog.count(),
  }
}

let admin: QuickUser
let manager: QuickUser
beforeAll(async () => {
  admin = await quickUser({ role: 'ADMIN', name: '财务管理员' })
  manager = await quickUser({ role: 'MANAGER' })
})

describe('POST /api/admin/user/{id}/adjust', () => {
  it('credits points through the ledger and records who, why, before and after in the audit log', async () => {
    const user = await quickUser({ points: 20, balance: 100 })
    const data = expectOk(await adjust(admin, user.id, { points: 50, reason: '活动奖励' }))
    expect(data).toEqual({ points: 70, balance: 100 })
    expect(await columns(user.id)).toEqual({ points: 70, balance: 100 })

    const rows = await rowsOf(user.id)
    expect(rows).toHaveLength(3) // two opening rows and this one
    expect(rows[2]).toMatchObject({
      account: 'POINTS',
      kind: 'ADMIN_ADJUST',
      amount: 50,
      balanceAfter: 70,
      note: '活动奖励',
      actorId: admin.id,
      reference: expect.stringMatching(/^admin-adjust:[0-9a-f-]{36}:points$/),
    })

    const audits = await auditsOf(user.id)
    expect(audits).toHaveLength(1)
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      actorName: admin.username,
      actorRole: 'ADMIN',
      action: 'user.adjust',
      reason: '活动奖励',
      ip: ADMIN_IP,
      before: { points: 20, balance: 100 },
      after: { points: 70, balance: 100, points_delta: 50, balance_delta: 0 },
    })
  })

  it("the audit's before and after differ by exactly the adjustment, even when the user spends at that moment", async () => {
    const user = await quickUser({ points: 100 })
    let adjusting: ReturnType<typeof adjust> | undefined
    // The user's spend holds the row (a task's charge, not yet committed) when the adjustment starts.
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "User" SET "points" = "points" - 30 WHERE "id" = ${user.id}`
      await tx.ledgerEntry.create({
        data: { userId: user.id, account: 'POINTS', kind: 'TASK_CHARGE', amount: -30, balanceAfter: 70, reference: `spend:${user.id}` },
      })
      adjusting = adjust(admin, user.id, { points: 50, reason: '活动奖励' })
      await new Promise((resolve) => setTimeout(resolve, 300))
    })
    expect(expectOk(await adjusting!)).toEqual({ points: 120, balance: 0 })
    const [audit] = await auditsOf(user.id)
    expect(audit).toMatchObject({ before: { points: 70, balance: 0 }, after: { points: 120, points_delta: 50 } })
    await expectLedgerInvariants()
  })

  it('moves points and balance at once, in either direction, down to exactly zero', async () => {
    const user = await quickUser({ points: 30, balance: 500 })
    expect(expectOk(await adjust(admin, user.id, { points: -30, balance: 250, reason: '换算' }))).toEqual({ points: 0, balance: 750 })
    expect(expectOk(await adjust(admin, user.id, { balance: -750, reason: '清零' }))).toEqual({ points: 0, balance: 0 })

    const rows = (await rowsOf(user.id)).slice(2).map((r) => ({ account: r.account, amount: r.amount, balanceAfter: r.balanceAfter, note: r.note }))
    expect(rows).toEqual([
      { account: 'POINTS', amount: -30, balanceAfter: 0, note: '换算' },
      { account: 'BALANCE', amount: 250, balanceAfter: 750, note: '换算' },
      { account: 'BALANCE', amount: -750, balanceAfter: 0, note: '清零' },
    ])
    // One audit record per call, naming both deltas.
    expect((await auditsOf(user.id)).map((a) => a.after)).toEqual([
      { points: 0, balance: 750, points_delta: -30, balance_delta: 250, requestId: expect.any(String) },
      { points: 0, balance: 0, points_delta: 0, balance_delta: -750, requestId: expect.any(String) },
    ])
  })

  it('refuses to go below zero with a clear 400 and changes nothing: no column, no ledger row, no audit', async () => {
    const user = await quickUser({ points: 10, balance: 99 })
    const before = await snapshot(user.id)
    expectFail(await adjust(admin, user.id, { points: -11, reason: '扣减' }), 400, '扣减后积分不能小于 0')
    expectFail(await adjust(admin, user.id, { balance: -100, reason: '扣减' }), 400, '扣减后余额不能小于 0')
    // The points part alone would fit: the whole call is still refused, the points part too.
    expectFail(await adjust(admin, user.id, { points: -5, balance: -100, reason: '扣减' }), 400, '扣减后余额不能小于 0')
    expectFail(await adjust(admin, user.id, { points: 5, balance: -100, reason: '扣减' }), 400, '扣减后余额不能小于 0')
    expect(await snapshot(user.id)).toEqual(before)
  })

  it('answers 400 naming the problem for bad bodies, writing nothing', async () => {
    const user = await quickUser({ points: 10 })
    const before = await snapshot(user.id)
    expectFail(await adjust(admin, user.id, { points: 5 }), 400, '请填写原因')
    expectFail(await adjust(admin, user.id, { points: 5, reason: '   ' }), 400, '请填写调整原因')
    expectFail(await adjust(admin, user.id, { reason: '没有金额' }), 400, '请填写要调整的积分或余额')
    expectFail(await adjust(admin, user.id, { points: 0, balance: 0, reason: '零' }), 400, '请填写要调整的积分或余额')
    expectFail(await adjust(admin, user.id, { points: 1.5, reason: '小数' }), 400, '请输入整数')
    expectFail(await adjust(admin, user.id, { balance: '100', reason: '字符串' }), 400, '余额的格式不正确')
    expectFail(await adjust(admin, user.id, { points: 5, reason: 'x', userId: admin.id }), 400, /^不支持的参数：.*userId/)
    expectFail(await adjust(admin, user.id, { points: 1_000_000_001, reason: '太多' }), 400, '积分不能大于 1000000000')
    expectFail(await adjust(admin, user.id, { points: 5, reason: 'x'.repeat(201) }), 400, '原因最多 200 个字符')
    expectFail(await adjust(admin, user.id, '[1]'), 400, '请求内容的格式不正确')
    expectFail(await adjust(admin, user.id, { points: 5, reason: '坏请求号', requestId: 'not-a-uuid' }, null), 400, 'requestId 必须是 UUID（每次调整生成一个）')
    expectFail(await adjust(admin, user.id, { points: 5, reason: '坏 Key' }, 'x'.repeat(256)), 400, 'Idempotency-Key 需为 1-255 个可见字符')
    expect(await snapshot(user.id)).toEqual(before)
  })

  it('answers 404 for an unknown user, writing nothing', async () => {
    const before = { ledger: await db().ledgerEntry.count(), audit: await db().adminAuditLog.count() }
    expectFail(await adjust(admin, 'cl-no-such-user', { points: 5, reason: '补发' }), 404, '用户不存在')
    expect({ ledger: await db().ledgerEntry.count(), audit: await db().adminAuditLog.count() }).toEqual(before)
  })

  it('is for ADMIN only: MANAGER and USER get 403, no token 401, and nothing moves', async () => {
    const user = await quickUser({ points: 10 })
    const before = await snapshot(user.id)
    expectFail(await adjust(manager, user.id, { points: 5, reason: '经理' }), 403)
    expectFail(await adjust(user, user.id, { points: 5, reason: '自己' }), 403)
    expectFail(await callRoute(adjustRoute.POST, { params: { id: user.id }, body: { points: 5, reason: '匿名' } }), 401)
    expect(await snapshot(user.id)).toEqual(before)
  })

  it('of 20 concurrent debits that together overdraw, exactly those that fit are booked, each audited once', async () => {
    const user = await quickUser({ points: 100 })
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => adjust(admin, user.id, { points: -10, reason: `并发扣减 ${i}` })))
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(200), ...Array(10).fill(400)])
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.errMessage).toBe('扣减后积分不能小于 0')
    expect(await columns(user.id)).toEqual({ points: 0, balance: 0 })
    expect(await db().ledgerEntry.count({ where: { userId: user.id, amount: -10 } })).toBe(10)
    expect(await auditsOf(user.id)).toHaveLength(10)
    await expectLedgerInvariants()
  })

  it('a replay of a request id answers the first result and books nothing more, even after later changes', async () => {
    const user = await quickUser({ points: 20, balance: 100 })
    const requestId = randomUUID()
    const body = { points: 50, balance: -40, reason: '补偿', requestId }
    const first = expectOk(await adjust(admin, user.id, body, null))
    expect(first).toEqual({ points: 70, balance: 60 })
    expectOk(await adjust(admin, user.id, { points: 5, reason: '另一笔' }))
    // The dialog retries after a lost answer (or the admin clicks twice): same id, same amounts.
    expect(expectOk(await adjust(admin, user.id, body, null))).toEqual(first)
    expect(expectOk(await adjust(admin, user.id, { ...body, reason: '原因改了也算同一笔' }, null))).toEqual(first)
    expect(await columns(user.id)).toEqual({ points: 75, balance: 60 })
    const booked = await db().ledgerEntry.findMany({ where: { reference: { startsWith: `admin-adjust:${requestId}:` } }, orderBy: { id: 'asc' } })
    expect(booked.map((r) => [r.reference, r.amount])).toEqual([
      [`admin-adjust:${requestId}:points`, 50],
      [`admin-adjust:${requestId}:balance`, -40],
    ])
    expect(await auditsOf(user.id)).toHaveLength(2)
    await expectLedgerInvariants()
  })

  it('the same request id with other amounts, or for another user, is a 409 and writes nothing', async () => {
    const user = await quickUser({ points: 10 })
    const other = await quickUser({ points: 10 })
    const requestId = randomUUID()
    expectOk(await adjust(admin, user.id, { points: 5, reason: '第一次', requestId }, null))
    const before = { user: await snapshot(user.id), other: await snapshot(other.id) }
    for (const body of [{ points: 6 }, { points: 5, balance: 1 }, { balance: 5 }, { points: -5 }]) {
      expectFail(
        await adjust(admin, user.id, { ...body, reason: '改了金额', requestId }, null),
        409,
        '该调整请求已按不同的金额或用户处理过，请关闭对话框后重新调整',
      )
    }
    expectFail(
      await adjust(admin, other.id, { points: 5, reason: '换了用户', requestId }, null),
      409,
      '该调整请求已按不同的金额或用户处理过，请关闭对话框后重新调整',
    )
    expect({ user: await snapshot(user.id), other: await snapshot(other.id) }).toEqual(before)
  })

  it('a request refused as a whole books nothing, so the same id may then go through with amounts that fit', async () => {
    const user = await quickUser({ points: 10 })
    const requestId = randomUUID()
    expectFail(await adjust(admin, user.id, { points: -11, reason: '太多' }, requestId), 400, '扣减后积分不能小于 0')
    expect(expectOk(await adjust(admin, user.id, { points: -10, reason: '改正' }, requestId))).toEqual({ points: 0, balance: 0 })
    expect(await db().ledgerEntry.count({ where: { reference: { startsWith: `admin-adjust:${requestId}:` } } })).toBe(1)
  })

  it('20 copies of one request sent at once book it exactly once, and every copy gets the same answer', async () => {
    const user = await quickUser({ points: 100, balance: 100 })
    const body = { points: -30, balance: 70, reason: '并发重放' }
    const key = randomUUID()
    const results = await Promise.all(Array.from({ length: 20 }, () => adjust(admin, user.id, body, key)))
    expect(results.map((r) => [r.status, r.body.data])).toEqual(results.map(() => [200, { points: 70, balance: 170 }]))
    expect(await columns(user.id)).toEqual({ points: 70, balance: 170 })
    expect(await auditsOf(user.id)).toHaveLength(1)
    await expectLedgerInvariants()
  })

  it('20 copies at once of a debit that takes everything: every copy gets the first answer, none is told 不能小于 0', async () => {
    const user = await quickUser({ points: 30, balance: 50 })
    const key = randomUUID()
    const results = await Promise.all(Array.from({ length: 20 }, () => adjust(admin, user.id, { points: -30, balance: -50, reason: '清零' }, key)))
    expect(results.map((r) => [r.status, r.body.errMessage ?? r.body.data])).toEqual(results.map(() => [200, { points: 0, balance: 0 }]))
    expect(await auditsOf(user.id)).toHaveLength(1)
    await expectLedgerInvariants()
  })

  it('the Idempotency-Key header: a replay answers 200 with the first result, books nothing more, and the header wins over a body requestId', async () => {
    const user = await quickUser({ points: 10, balance: 0 })
    const key = `console-${randomUUID()}`
    const first = expectOk(await adjust(admin, user.id, { points: 15, balance: 300, reason: '补发' }, key))
    expect(first).toEqual({ points: 25, balance: 300 })
    expectOk(await adjust(admin, user.id, { points: 1, reason: '另一笔' }))
    const replay = await adjust(admin, user.id, { points: 15, balance: 300, reason: '补发' }, key)
    expect(replay.status).toBe(200)
    expect(replay.body.data).toEqual(first)
    // An old client's requestId in the body does not make it another adjustment when the header names one.
    expect(expectOk(await adjust(admin, user.id, { points: 15, balance: 300, reason: '补发', requestId: randomUUID() }, key))).toEqual(first)
    expect(await columns(user.id)).toEqual({ points: 26, balance: 300 })
    expect(await db().ledgerEntry.count({ where: { reference: { startsWith: `admin-adjust:${key}:` } } })).toBe(2)
    await expectLedgerInvariants()
  })

  it('the same Idempotency-Key with other amounts or for another user is a 409, as task submits answer, and writes nothing', async () => {
    const user = await quickUser({ points: 10 })
    const other = await quickUser({ points: 10 })
    const key = randomUUID()
    expectOk(await adjust(admin, user.id, { points: 5, reason: '第一次' }, key))
    const before = { user: await snapshot(user.id), other: await snapshot(other.id) }
    expectFail(await adjust(admin, user.id, { points: 6, reason: '改了金额' }, key), 409, '该调整请求已按不同的金额或用户处理过，请关闭对话框后重新调整')
    expectFail(await adjust(admin, other.id, { points: 5, reason: '换了用户' }, key), 409, '该调整请求已按不同的金额或用户处理过，请关闭对话框后重新调整')
    expect({ user: await snapshot(user.id), other: await snapshot(other.id) }).toEqual(before)
  })

  it('without any key (the pinned call: points, balance, reason) it works, and each call books again', async () => {
    const user = await quickUser({ points: 10, balance: 100 })
    const body = { points: 5, balance: 50, reason: '无 Key 调整' }
    expect(expectOk(await adjust(admin, user.id, body, null))).toEqual({ points: 15, balance: 150 })
    expect(expectOk(await adjust(admin, user.id, body, null))).toEqual({ points: 20, balance: 200 })
    expect(await columns(user.id)).toEqual({ points: 20, balance: 200 })
    expect(await auditsOf(user.id)).toHaveLength(2)
    await expectLedgerInvariants()
  })

  it('a credit the column cannot hold is a 400, not a 500, and changes nothing', async () => {
    // User.points is a 32-bit integer: 2,000,000,000 + 1,000,000,000 does not fit.
    const user = await quickUser({ points: 2_000_000_000, balance: 2_000_000_000 })
    const before = await snapshot(user.id)
    expectFail(await adjust(admin, user.id, { points: 1_000_000_000, reason: '溢出' }), 400, '积分超出可记录的上限')
    expectFail(await adjust(admin, user.id, { balance: 1_000_000_000, reason: '溢出' }), 400, '余额超出可记录的上限')
    expect(await snapshot(user.id)).toEqual(before)
    // Up to the very top still fits.
    expect(expectOk(await adjust(admin, user.id, { points: 147_483_647, reason: '到顶' }))).toEqual({ points: 2_147_483_647, balance: 2_000_000_000 })
  })
})

describe('GET /api/users/ledger', () => {
  let alice: QuickUser
  let bob: QuickUser
  beforeAll(async () => {
    alice = await quickUser({ points: 5 })
    bob = await quickUser({ balance: 7 })
    // 24 adjustments each, interleaved, so the two users' row ids alternate.
    for (let i = 1; i <= 24; i++) {
      expectOk(await adjust(admin, alice.id, i % 3 === 0 ? { balance: i * 100, reason: `alice ${i}` } : { points: i, reason: `alice ${i}` }))
      expectOk(await adjust(admin, bob.id, { points: i, reason: `bob ${i}` }))
    }
  })

  it('shows the caller their own rows, newest first, with the fields of a row and nothing more', async () => {
    const data = expectOk(await ledgerOf(alice, { limit: 3 }))
    expect(data.list.map((r: { note: string }) => r.note)).toEqual(['alice 24', 'alice 23', 'alice 22'])
    expect(Object.keys(data.list[0]).sort()).toEqual(['account', 'amount', 'balanceAfter', 'createdAt', 'id', 'kind', 'note'])
    expect(data.list[0]).toMatchObject({ account: 'BALANCE', kind: 'ADMIN_ADJUST', amount: 2400, balanceAfter: 100 * (3 + 6 + 9 + 12 + 15 + 18 + 21 + 24) })
    expect(data.list[1]).toMatchObject({ account: 'POINTS', amount: 23 })
    expect(data.nextCursor).toBe(data.list[2].id)
  })

  it('pages with nextCursor through every row exactly once, and ends with null', async () => {
    const seen: number[] = []
    let cursor: number | null = null
    const sizes: number[] = []
    do {
      const data: { list: Array<{ id: number }>; nextCursor: number | null } = expectOk(await ledgerOf(alice, cursor ? { limit: 10, cursor } : { limit: 10 }))
      sizes.push(data.list.length)
      seen.push(...data.list.map((r) => r.id))
      cursor = data.nextCursor
    } while (cursor)
    expect(sizes).toEqual([10, 10, 5]) // 24 adjustments and the opening row
    const own = (await rowsOf(alice.id)).map((r) => r.id).reverse()
    expect(seen).toEqual(own)
  })

  it('never shows another user’s rows, whatever the cursor', async () => {
    const bobIds = new Set((await rowsOf(bob.id)).map((r) => r.id))
    const all = expectOk(await ledgerOf(alice, { limit: 100 }))
    expect(all.list).toHaveLength(25)
    expect(all.list.filter((r: { id: number }) => bobIds.has(r.id))).toEqual([])
    // A cursor taken from Bob's rows still yields only Alice's.
    const fromBobsCursor = expectOk(await ledgerOf(alice, { limit: 100, cursor: Math.max(...bobIds) + 1 }))
    expect(fromBobsCursor.list.every((r: { note: string | null }) => r.note === null || r.note.startsWith('alice'))).toBe(true)
    expect(fromBobsCursor.list).toHaveLength(25)
    expect(expectOk(await ledgerOf(bob, { limit: 100 })).list.map((r: { id: number }) => r.id)).toEqual([...bobIds].reverse())
  })

  it('defaults to 20 rows, refuses a bad limit or cursor, and needs a token', async () => {
    expect(expectOk(await ledgerOf(alice)).list).toHaveLength(20)
    expectFail(await ledgerOf(alice, { limit: 101 }), 400, '条数不能大于 100')
    expectFail(await ledgerOf(alice, { limit: 0 }), 400, '条数不能小于 1')
    expectFail(await ledgerOf(alice, { cursor: 'abc' }), 400, '翻页位置的格式不正确')
    expectFail(await callRoute(ledgerRoute.GET, {}), 401)
  })

  it('answers what the Prisma query it replaced answered, key for key, on every page', async () => {
    const previous = async (userId: string, limit: number, cursor?: number) => {
      const rows = await db().ledgerEntry.findMany({
        where: { userId, ...(cursor ? { id: { lt: cursor } } : {}) },
        orderBy: { id: 'desc' },
        take: limit + 1,
        select: { id: true, account: true, kind: true, amount: true, balanceAfter: true, note: true, createdAt: true },
      })
      const list = rows.slice(0, limit)
      return { list, nextCursor: rows.length > limit ? (list.at(-1)?.id ?? null) : null }
    }
    for (const limit of [1, 7, 25, 26, 100]) {
      let cursor: number | undefined
      do {
        const before = await previous(alice.id, limit, cursor)
        expect(JSON.stringify(await listLedger(alice.id, { limit, cursor })), `${limit} ${cursor}`).toBe(JSON.stringify(before))
        expect(expectOk(await ledgerOf(alice, cursor ? { limit, cursor } : { limit }))).toEqual(JSON.parse(JSON.stringify(before)))
        cursor = before.nextCursor ?? undefined
      } while (cursor)
    }
    expect(JSON.stringify(await listLedger(alice.id, { limit: 5, cursor: 1 }))).toBe(JSON.stringify(await previous(alice.id, 5, 1)))
  })

  it('an empty ledger is an empty list with no cursor', async () => {
    const fresh = await quickUser()
    expect(expectOk(await ledgerOf(fresh))).toEqual({ list: [], nextCursor: null })
  })
})

describe('deleting users with money history', () => {
  const remove = (id: string) => callRoute(adminUserItem.DELETE, { method: 'DELETE', token: admin.token, params: { id }, ip: ADMIN_IP })

  it('refuses (409) to delete a user with ledger rows, even when both columns are back at zero', async () => {
    const user = await quickUser({ points: 10 })
    expectOk(await adjust(admin, user.id, { points: -10, reason: '清零' }))
    expectFail(await remove(user.id), 409, '该用户有积分或余额流水，不能删除；可以禁用该账号')
    expect(await db().user.count({ where: { id: user.id } })).toBe(1)
    expect(await rowsOf(user.id)).toHaveLength(2)
    expect(await db().adminAuditLog.count({ where: { action: 'user.delete', targetId: user.id } })).toBe(0)
  })

  it('deletes a user without ledger rows, with an audit record', async () => {
    const user = await quickUser()
    expect(expectOk(await remove(user.id))).toEqual({ id: user.id })
    expect(await db().user.count({ where: { id: user.id } })).toBe(0)
    expect(await db().adminAuditLog.count({ where: { action: 'user.delete', targetId: user.id } })).toBe(1)
    await expectLedgerInvariants()
  })
})

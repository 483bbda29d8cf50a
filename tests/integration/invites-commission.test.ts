// Commission (docs/PRODUCT.md §17): an invitee's paid order credits the inviter once, in the
// fulfilment's transaction, whatever path decides the order is paid; a refund takes it back
// while the inviter still holds it. Against the WeChat Pay fake over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as commissionRecords from '@/app/api/admin/commission/records/route'
import * as commissionUpdate from '@/app/api/admin/commission/update/route'
import * as relations from '@/app/api/admin/invites/route'
import * as markPaid from '@/app/api/admin/orders/[id]/mark-paid/route'
import * as refund from '@/app/api/admin/orders/[id]/refund/route'
import * as wechatNotify from '@/app/api/pay/wechat/notify/route'
import * as bindInvite from '@/app/api/users/bind_invite/route'
import * as myInvite from '@/app/api/users/my/invite/route'
import * as myRecords from '@/app/api/users/my/invite/records/route'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { maskName, type TCommissionRecordQuery, type TInviteRelationQuery } from '@/lib/invites/schemas'
import { MAX_STORED, postMovement } from '@/lib/ledger/post-movement'
import { reconcileOrders } from '@/lib/payments/reconcile-orders'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { quickUser, quickUsers, type QuickUser } from '../helpers/ledger-fixtures'
import { configureMerchants, createProductRow, ledgerMatchesColumns, placeOrder, startPaymentWorld, type PaymentWorld } from '../helpers/payments'

let world: PaymentWorld
let admin: Awaited<ReturnType<typeof createUser>>
let pack: { id: number }
let plan: { id: number }

const settings = (body: Record<string, unknown>) => callRoute(commissionUpdate.POST, { token: admin.token, body }).then(expectOk)

beforeAll(async () => {
  world = await startPaymentWorld()
  admin = await createUser({ role: 'ADMIN' })
  await configureMerchants(admin.token, world)
  pack = await createProductRow({ type: 'POINTS', price: 990, points: 1000, name: '1000 积分' })
  plan = await createProductRow({ type: 'MEMBERSHIP', price: 2999, days: 30, dailyPoints: 20, name: '月卡' })
  await settings({ rates: { POINTS: 10, MEMBERSHIP: 7 }, payAs: 'BALANCE', pointsPerYuan: 100 })
})

afterAll(async () => {
  expect(await ledgerMatchesColumns()).toBe(true)
  await world.close()
})

const post = (n: { headers: Record<string, string>; body: string }) =>
  wechatNotify.POST(new Request('http://localhost/api/pay/wechat/notify', { method: 'POST', ...n }))
const wallet = (id: string) => db().user.findUniqueOrThrow({ where: { id }, select: { points: true, balance: true } })

async function invitedBy(inviter: QuickUser, n: number): Promise<QuickUser[]> {
  const code = expectOk(await callRoute(myInvite.GET, { token: inviter.token })).code
  const invitees = await quickUsers(n)
  await Promise.all(invitees.map(async (u) => expectOk(await callRoute(bindInvite.POST, { token: u.token, body: { code } }))))
  return invitees
}

async function paidOrder(user: QuickUser, productId = pack.id, type = 'POINTS') {
  const { order } = await placeOrder(user.token, { productId, type, channel: 'WECHAT', tradeType: 'NATIVE' })
  await world.wechat.pay(order.outTradeNo)
  return order
}

describe('100 invitees of one inviter pay at once', () => {
  it('exactly 100 commission rows and the exact sum; all 100 notifications replayed add nothing', async () => {
    const inviter = await quickUser()
    const invitees = await invitedBy(inviter, 100)
    const orders = await Promise.all(
      invitees.map(async (u) => (await placeOrder(u.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' })).order),
    )
    for (const o of orders) await world.wechat.pay(o.outTradeNo, { notify: false })
    const notifications = orders.map((o) => world.wechat.notificationFor(o.outTradeNo))

    const replies = await Promise.all(notifications.map(post))
    expect(replies.map((r) => r.status)).toEqual(Array(100).fill(204))
    // 10 % of 9.90 yuan = 99 cents each.
    expect(await db().commissionRecord.count({ where: { inviterId: inviter.id } })).toBe(100)
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 9900 })

    const replayed = await Promise.all(notifications.map(post))
    expect(replayed.map((r) => r.status)).toEqual(Array(100).fill(204))
    expect(await db().commissionRecord.count({ where: { inviterId: inviter.id } })).toBe(100)
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 9900 })
    expect(await db().ledgerEntry.count({ where: { userId: inviter.id, kind: 'COMMISSION' } })).toBe(100)

    const mine = expectOk(await callRoute(myInvite.GET, { token: inviter.token }))
    expect(mine).toMatchObject({ invitedCount: 100, earnings: { balance: 9900, points: 0 } })
    const page = expectOk(await callRoute(myRecords.GET, { token: inviter.token, query: { page: 2, pageSize: 30 } }))
    expect(page.total).toBe(100)
    expect(page.list).toHaveLength(30)
    expect(page.list[0]).toMatchObject({ orderType: 'POINTS', orderAmount: 990, account: 'BALANCE', amount: 99, status: 'SUCCESS' })
    expect(page.list[0].invitee).toContain('*')
    // Nobody else sees these records.
    expect(expectOk(await callRoute(myRecords.GET, { token: invitees[0]!.token })).total).toBe(0)
  })
})

describe('every way to SUCCESS pays once', () => {
  it('the reconciler and an admin mark-paid after a notification never pay twice', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    const { order } = await placeOrder(buyer!.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' })
    world.wechat.settings.loseNotifications = true
    try {
      await world.wechat.pay(order.outTradeNo)
    } finally {
      world.wechat.settings.loseNotifications = false
    }
    await db().order.update({ where: { id: order.id }, data: { nextQueryAt: new Date(0) } })
    const [a, b] = await Promise.all([
      reconcileOrders(),
      callRoute(markPaid.POST, { token: admin.token, params: { id: order.id }, body: { reason: '核对到账' } }),
    ])
    expect(a).toBeDefined()
    expect([200, 400, 409]).toContain(b.status)
    await post(world.wechat.notificationFor(order.outTradeNo))
    expect(await db().commissionRecord.count({ where: { orderId: order.id } })).toBe(1)
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 99 })
  })

  it('points at pointsPerYuan, rounded down; a type at 0 % and an uninvited buyer earn nothing', async () => {
    await settings({ payAs: 'POINTS', pointsPerYuan: 33 })
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    await paidOrder(buyer!, plan.id, 'MEMBERSHIP')
    // 29.99 yuan × 7 % × 33 points per yuan = 69.27… → 69 points.
    expect(await wallet(inviter.id)).toEqual({ points: 69, balance: 0 })
    expect(await db().commissionRecord.findFirstOrThrow({ where: { inviterId: inviter.id } })).toMatchObject({ account: 'POINTS', amount: 69, rate: 7 })
    expect(expectOk(await callRoute(myInvite.GET, { token: inviter.token })).earnings).toEqual({ balance: 0, points: 69 })

    await settings({ rates: { MEMBERSHIP: 0 } })
    await paidOrder(buyer!, plan.id, 'MEMBERSHIP')
    expect((await wallet(inviter.id)).points).toBe(69)
    const loner = await quickUser()
    const order = await paidOrder(loner)
    expect(await db().commissionRecord.count({ where: { orderId: order.id } })).toBe(0)
    await settings({ rates: { MEMBERSHIP: 7 }, payAs: 'BALANCE', pointsPerYuan: 100 })
  })

  it('an order paid from the balance earns no commission (its money earned it when recharged)', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    await postMovementFor(buyer!.id, 990)
    const { order } = await placeOrder(buyer!.token, { productId: pack.id, type: 'POINTS', channel: 'BALANCE' })
    expect(order.status).toBe('SUCCESS')
    expect(await db().commissionRecord.count({ where: { orderId: order.id } })).toBe(0)
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 0 })
    // Nor does the console's invite list count it as money the invitee brought.
    const [relation] = expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: buyer!.id } })).list
    expect(relation).toMatchObject({ orders: 0, paid: 0 })
  })
})

async function postMovementFor(userId: string, cents: number) {
  await db().$transaction((tx) =>
    postMovement(tx, { userId, account: 'BALANCE', kind: 'ADMIN_ADJUST', amount: cents, reference: `test-topup:${userId}:${cents}` }),
  )
}

describe('refunds', () => {
  it('take the commission back while the inviter holds it', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    const order = await paidOrder(buyer!)
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 99 })
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户申请退款' } }))
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 0 })
    expect(await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: 'CANCELED', note: '订单退款，佣金已收回' })
    expect(expectOk(await callRoute(myInvite.GET, { token: inviter.token })).earnings).toEqual({ balance: 0, points: 0 })
    // The console's invite list no longer counts the refunded order as paid.
    const [relation] = expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: buyer!.id } })).list
    expect(relation).toMatchObject({ orders: 0, paid: 0, commission: { balance: 0, points: 0 } })
  })

  it('an order whose refund awaits the provider is no longer counted as paid in the invite list', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    const order = await paidOrder(buyer!)
    const relation = async () => expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: buyer!.id } })).list[0]
    expect(await relation()).toMatchObject({ orders: 1, paid: order.amount })
    // What a refund's claim writes before the provider answers (its commission is taken back with it).
    await db().order.update({ where: { id: order.id }, data: { refundNo: `R${Date.now()}`, refundReason: '用户申请退款' } })
    expect(await relation()).toMatchObject({ orders: 0, paid: 0 })
  })

  it('when the inviter spent it, the refund still goes through and the record says it was kept', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    const order = await paidOrder(buyer!)
    await db().$transaction((tx) =>
      postMovement(tx, { userId: inviter.id, account: 'BALANCE', kind: 'ORDER_PAYMENT', amount: -50, reference: `spend:${inviter.id}` }),
    )
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } }))
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 49 })
    expect(await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({
      status: 'SUCCESS',
      note: '订单已退款，但邀请人已使用该佣金，未能收回',
    })
  })

  it('when WeChat refuses the refund, the commission taken back returns', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    const order = await paidOrder(buyer!)
    world.wechat.failAll({ status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' })
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } }), 503)
    } finally {
      world.wechat.failAll(null)
    }
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 99 })
    expect(await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: 'SUCCESS', note: null })
  })
})

describe('a refused refund when the inviter is at the ceiling', () => {
  it('the buyer still gets back what the refund took; the commission stays taken back, and the record says why', async () => {
    const inviter = await quickUser()
    const [buyer] = await invitedBy(inviter, 1)
    const order = await paidOrder(buyer!)
    const before = await wallet(buyer!.id)
    // WeChat's answer says nothing (a 5xx): the refund waits, the commission taken back with it.
    world.wechat.failAll({ status: 500, code: 'SYSTEM_ERROR', message: '系统繁忙' })
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } })).refundedAt).toBeNull()
    } finally {
      world.wechat.failAll(null)
    }
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 0 })
    await postMovementFor(inviter.id, MAX_STORED)
    // Asked again, WeChat refuses, and its refund query shows no refund: the credit goes back.
    world.wechat.settings.refundRefusal = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' }
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } }), 503, /基本账户余额不足/)
    } finally {
      world.wechat.settings.refundRefusal = null
    }
    expect(await wallet(buyer!.id)).toEqual(before)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundNo: true } })).toEqual({ refundNo: null })
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: MAX_STORED })
    expect(await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({
      status: 'CANCELED',
      note: '一次退款被拒后，因邀请人的余额或积分已达上限，收回的佣金未能退回',
    })
    // A later refund refused again gives back nothing of a commission it did not take.
    world.wechat.settings.refundRefusal = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' }
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '第三次' } }), 503, /基本账户余额不足/)
    } finally {
      world.wechat.settings.refundRefusal = null
    }
    await postMovementFor(inviter.id, -MAX_STORED)
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 0 })
    expect(await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: 'CANCELED' })
    expect(await wallet(buyer!.id)).toEqual(before)
    expect(await ledgerMatchesColumns()).toBe(true)
  })
})

describe('the console', () => {
  it('lists commission records filtered by a person, type and status, and relations with orders and commission', async () => {
    const inviter = await quickUser({ name: '佣金查询人' })
    const [buyer] = await invitedBy(inviter, 1)
    const order = await paidOrder(buyer!)
    const page = expectOk(
      await callRoute(commissionRecords.GET, { token: admin.token, query: { keyword: '佣金查询人', orderType: 'POINTS', status: 'SUCCESS' } }),
    )
    expect(page.total).toBe(1)
    expect(page.list[0]).toMatchObject({
      orderId: order.id,
      outTradeNo: order.outTradeNo,
      inviter: { id: inviter.id },
      invitee: { id: buyer!.id },
      amount: 99,
      rate: 10,
    })
    expect(expectOk(await callRoute(commissionRecords.GET, { token: admin.token, query: { keyword: '佣金查询人', status: 'CANCELED' } })).total).toBe(0)
    // Key for key what the Prisma query it replaced answered: filters, both sides of a record,
    // notes, an empty page and a page past the end (the earlier tests left records of every kind).
    for (const query of [
      {},
      { pageSize: 5 },
      { page: 3, pageSize: 7 },
      { page: 99 },
      { keyword: '佣金查询人' },
      { keyword: '查询' },
      { keyword: inviter.username.toUpperCase() },
      { keyword: buyer!.id },
      { keyword: buyer!.username.slice(1, 5) },
      { keyword: '没有这个人' },
      { orderType: 'MEMBERSHIP' },
      { status: 'CANCELED' },
      { status: 'SUCCESS', orderType: 'POINTS', pageSize: 3, page: 2 },
      { keyword: '佣金查询人', orderType: 'POINTS', status: 'SUCCESS' },
      { keyword: '佣金查询人', status: 'CANCELED' },
    ] as const) {
      const answer = expectOk(await callRoute(commissionRecords.GET, { token: admin.token, query: query as Record<string, string | number> }))
      expect(Object.keys(answer)).toEqual(['total', 'list'])
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await previousCommissionRecords({ page: 1, pageSize: 20, ...query })))
    }
    expect((await previousCommissionRecords({ page: 1, pageSize: 100 })).list.some((r) => r.note !== null)).toBe(true)
    // Unlike Prisma's contains, % and _ in the keyword are the characters typed (lib/db/like.ts), as in the other console lists.
    for (const keyword of ['%', 'lq_', '\\']) {
      expect(expectOk(await callRoute(commissionRecords.GET, { token: admin.token, query: { keyword } }))).toEqual({ total: 0, list: [] })
    }
    const rel = expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: '佣金查询人' } }))
    expect(rel.list[0]).toMatchObject({ orders: 1, paid: 990, commission: { balance: 99, points: 0 } })
    // The relations: key for key what the Prisma queries they replaced answered (the earlier
    // tests left invitees with orders and commission in both accounts; one more has no order).
    await invitedBy(inviter, 1)
    for (const query of [
      {},
      { pageSize: 5 },
      { page: 3, pageSize: 30 },
      { page: 99 },
      { keyword: '佣金查询人' },
      { keyword: '查询' },
      { keyword: buyer!.username.toUpperCase() },
      { keyword: buyer!.id },
      { keyword: inviter.id },
      { keyword: '没有这个人' },
    ] as const) {
      const answer = expectOk(await callRoute(relations.GET, { token: admin.token, query: query as Record<string, string | number> }))
      expect(Object.keys(answer)).toEqual(['total', 'list'])
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await previousInviteRelations({ page: 1, pageSize: 20, ...query })))
    }
    const all = [...(await previousInviteRelations({ page: 1, pageSize: 100 })).list, ...(await previousInviteRelations({ page: 2, pageSize: 100 })).list]
    expect(all.some((r) => r.commission.points > 0)).toBe(true)
    expect(all.some((r) => r.commission.balance > 0)).toBe(true)
    expect(all.some((r) => r.orders === 0)).toBe(true)
    expect(expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: '%' } }))).toEqual({ total: 0, list: [] })
    // The inviter's own records: the whole answer, the invitee's name masked.
    const record = await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id }, include: { invitee: { select: { name: true } } } })
    const mine = expectOk(await callRoute(myRecords.GET, { token: inviter.token }))
    expect(mine).toEqual({
      total: 1,
      list: [
        {
          id: record.id,
          invitee: maskName(record.invitee.name),
          orderType: 'POINTS',
          orderAmount: 990,
          account: 'BALANCE',
          amount: 99,
          status: 'SUCCESS',
          note: null,
          createdAt: record.createdAt.toISOString(),
        },
      ],
    })
    expect(Object.keys(mine)).toEqual(['total', 'list'])
    expect(Object.keys(mine.list[0])).toEqual(['id', 'invitee', 'orderType', 'orderAmount', 'account', 'amount', 'status', 'note', 'createdAt'])
    expect(expectOk(await callRoute(myRecords.GET, { token: inviter.token, query: { page: 2 } }))).toEqual({ total: 1, list: [] })
    const user = await quickUser()
    expectFail(await callRoute(commissionRecords.GET, { token: user.token }), 403)
  })
})

/** The Prisma queries listCommissionRecords made before it became one statement (as they were). */
async function previousCommissionRecords(query: TCommissionRecordQuery) {
  const person = { select: { id: true, name: true, username: true } } as const
  const matching = (keyword: string): Prisma.UserWhereInput => ({
    OR: [{ id: keyword }, { username: { contains: keyword, mode: 'insensitive' } }, { name: { contains: keyword, mode: 'insensitive' } }],
  })
  const where: Prisma.CommissionRecordWhereInput = {
    ...(query.keyword ? { OR: [{ inviter: matching(query.keyword) }, { invitee: matching(query.keyword) }] } : {}),
    ...(query.orderType ? { orderType: query.orderType } : {}),
    ...(query.status ? { status: query.status } : {}),
  }
  const [rows, total] = await Promise.all([
    db().commissionRecord.findMany({
      where,
      orderBy: { id: 'desc' },
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      include: { inviter: person, invitee: person, order: { select: { outTradeNo: true } } },
    }),
    db().commissionRecord.count({ where }),
  ])
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      orderId: r.orderId,
      outTradeNo: r.order.outTradeNo,
      inviter: r.inviter,
      invitee: r.invitee,
      orderType: r.orderType,
      orderAmount: r.orderAmount,
      rate: r.rate,
      account: r.account,
      amount: r.amount,
      status: r.status,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
    })),
  }
}

/** The Prisma queries listInviteRelations made before it became one statement (refunded orders left out since). */
async function previousInviteRelations(query: TInviteRelationQuery) {
  const person = { select: { id: true, name: true, username: true } } as const
  const matching = (keyword: string): Prisma.UserWhereInput => ({
    OR: [{ id: keyword }, { username: { contains: keyword, mode: 'insensitive' } }, { name: { contains: keyword, mode: 'insensitive' } }],
  })
  const where: Prisma.UserWhereInput = {
    inviterId: { not: null },
    ...(query.keyword ? { OR: [matching(query.keyword), { inviter: matching(query.keyword) }] } : {}),
  }
  const [rows, total] = await Promise.all([
    db().user.findMany({
      where,
      orderBy: [{ invitedAt: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: { id: true, name: true, username: true, invitedAt: true, inviter: { select: person.select } },
    }),
    db().user.count({ where }),
  ])
  const ids = rows.map((r) => r.id)
  const [orders, commission] = await Promise.all([
    db().order.groupBy({
      by: ['userId'],
      where: { userId: { in: ids }, status: 'SUCCESS', refundNo: null, channel: { not: 'BALANCE' } },
      _count: true,
      _sum: { amount: true },
    }),
    db().commissionRecord.groupBy({ by: ['inviteeId', 'account'], where: { inviteeId: { in: ids }, status: 'SUCCESS' }, _sum: { amount: true } }),
  ])
  return {
    total,
    list: rows.map((r) => {
      const o = orders.find((x) => x.userId === r.id)
      const c = (account: string) => commission.find((x) => x.inviteeId === r.id && x.account === account)?._sum.amount ?? 0
      return {
        inviter: r.inviter!,
        invitee: { id: r.id, name: r.name, username: r.username },
        invitedAt: (r.invitedAt ?? new Date(0)).toISOString(),
        orders: o?._count ?? 0,
        paid: o?._sum.amount ?? 0,
        commission: { balance: c('BALANCE'), points: c('POINTS') },
      }
    }),
  }
}

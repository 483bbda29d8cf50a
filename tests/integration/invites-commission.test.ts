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
import { maskName } from '@/lib/invites/schemas'
import { postMovement } from '@/lib/ledger/post-movement'
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
    world.wechat.failAll({ status: 500, code: 'SYSTEM_ERROR', message: '系统繁忙' })
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } }), 503)
    } finally {
      world.wechat.failAll(null)
    }
    expect(await wallet(inviter.id)).toEqual({ points: 0, balance: 99 })
    expect(await db().commissionRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: 'SUCCESS', note: null })
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
    const rel = expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: '佣金查询人' } }))
    expect(rel.list[0]).toMatchObject({ orders: 1, paid: 990, commission: { balance: 99, points: 0 } })
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

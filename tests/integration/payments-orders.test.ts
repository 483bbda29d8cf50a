// Orders as money (docs/PRODUCT.md §14): one Idempotency-Key makes one order, balance payments
// racing the balance, every path to SUCCESS racing the others, refunds, memberships, and the
// console's calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as chargeGroup from '@/app/api/admin/charge-records/group-by-date/route'
import * as chargeStatus from '@/app/api/admin/charge-records/[id]/status/route'
import * as chargeRecords from '@/app/api/admin/charge-records/route'
import * as analysis from '@/app/api/admin/analysis/route'
import * as adminOrder from '@/app/api/admin/orders/[id]/route'
import * as markPaid from '@/app/api/admin/orders/[id]/mark-paid/route'
import * as adminProduct from '@/app/api/admin/products/[id]/route'
import * as refund from '@/app/api/admin/orders/[id]/refund/route'
import * as adminOrders from '@/app/api/admin/orders/route'
import * as orderById from '@/app/api/orders/[id]/route'
import * as cancel from '@/app/api/orders/[id]/cancel/route'
import * as orders from '@/app/api/orders/route'
import * as wechatNotify from '@/app/api/pay/wechat/notify/route'
import { beijingDay } from '@/lib/beijing-time'
import { db } from '@/lib/db'
import { getMyOrder, listMyOrders } from '@/lib/payments/my-orders'
import { ADMIN_ORDER_SELECT, adminOrderView, ORDER_SELECT } from '@/lib/payments/order-views'
import { queryProvider } from '@/lib/payments/provider-status'
import { reconcileOrders } from '@/lib/payments/reconcile-orders'
import { endAskingTurn, takeAskingTurnOf } from '@/lib/payments/refund-order'
import { REFUND_RETRY_AFTER_MS, RETRY_REFUNDS_JOB, retryRefunds } from '@/lib/payments/retry-refunds'
import { backgroundJobs } from '@/lib/worker/jobs'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure } from '../helpers/sign-in'
import { configureMerchants, createProductRow, ledgerMatchesColumns, placeOrder, startPaymentWorld, type PaymentWorld } from '../helpers/payments'

let world: PaymentWorld
let admin: Awaited<ReturnType<typeof createUser>>
let pack: { id: number }
let plan: { id: number }

beforeAll(async () => {
  world = await startPaymentWorld()
  admin = await createUser({ role: 'ADMIN' })
  await configureMerchants(admin.token, world)
  pack = await createProductRow({ type: 'POINTS', price: 100, points: 120, name: '120 积分' })
  plan = await createProductRow({ type: 'MEMBERSHIP', price: 3000, days: 30, dailyPoints: 20, discountPercent: 20, name: '月卡' })
})

afterAll(async () => {
  expect(await ledgerMatchesColumns()).toBe(true)
  await world.close()
})

/** GET /api/admin/orders/{id} as the Prisma query it replaced made it (its notifications, nulls and key order). */
const prismaOrderDetail = async (id: string) =>
  adminOrderView(
    await db().order.findUniqueOrThrow({
      where: { id },
      select: {
        ...ADMIN_ORDER_SELECT,
        grant: true,
        notifications: { orderBy: { id: 'asc' }, select: { id: true, channel: true, outcome: true, detail: true, eventId: true, receivedAt: true } },
      },
    }),
  )

const wallet = async (userId: string) => db().user.findUniqueOrThrow({ where: { id: userId }, select: { points: true, balance: true } })
const post = (n: { headers: Record<string, string>; body: string }) =>
  wechatNotify.POST(new Request('http://localhost/api/pay/wechat/notify', { method: 'POST', ...n }))

describe('Idempotency-Key', () => {
  it('20 requests at once with one key make one order; the others get it replayed or 409 while it is made', async () => {
    const user = await createUser()
    const body = { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callRoute(orders.POST, { token: user.token, body, headers: { 'idempotency-key': 'k-20' } })),
    )
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true)
    const ids = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.data.order.id))
    expect(ids.size).toBe(1)
    expect(await db().order.count({ where: { userId: user.id } })).toBe(1)
    expect(
      world.wechat.calls.filter(
        (c) =>
          c.path === '/v3/pay/transactions/native' &&
          (c.body as { out_trade_no?: string }).out_trade_no === answers.find((a) => a.status === 200)!.body.data.order.outTradeNo,
      ),
    ).toHaveLength(1)
    // Later, with the same key: the same answer. With another body: refused.
    expect(expectOk(await callRoute(orders.POST, { token: user.token, body, headers: { 'idempotency-key': 'k-20' } })).order.id).toBe([...ids][0])
    expectFail(await callRoute(orders.POST, { token: user.token, body: { ...body, tradeType: 'MWEB' }, headers: { 'idempotency-key': 'k-20' } }), 409, /另一笔/)
  })

  it('balance orders with one key, 20 at once: one order, one charge', async () => {
    const user = await createUser({ balance: 1000 })
    const body = { productId: pack.id, type: 'POINTS', channel: 'BALANCE' }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callRoute(orders.POST, { token: user.token, body, headers: { 'idempotency-key': 'bal-1' } })),
    )
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true)
    expect(await wallet(user.id)).toEqual({ points: 120, balance: 900 })
    expect(await db().order.count({ where: { userId: user.id } })).toBe(1)
  })
})

describe('paying from the balance', () => {
  it('is paid at once, with one charge record of channel BALANCE', async () => {
    const user = await createUser({ balance: 250 })
    const { order, payment } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'BALANCE' })
    expect(order).toMatchObject({ status: 'SUCCESS', channel: 'BALANCE', amount: 100 })
    expect(payment).toEqual({})
    expect(await wallet(user.id)).toEqual({ points: 120, balance: 150 })
    expect(await db().chargeRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ channel: 'BALANCE', amount: 100, points: 120 })
  })

  it('without enough balance: 400 余额不足 and nothing is left behind', async () => {
    const user = await createUser({ balance: 99 })
    expectFail(await callRoute(orders.POST, { token: user.token, body: { productId: pack.id, type: 'POINTS', channel: 'BALANCE' } }), 400, /余额不足/)
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0)
    expect(await db().chargeRecord.count({ where: { userId: user.id } })).toBe(0)
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 99 })
  })

  it('30 different orders racing a balance that pays for 10: exactly 10 succeed, the balance ends at 0', async () => {
    const user = await createUser({ balance: 1000 })
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => callRoute(orders.POST, { token: user.token, body: { productId: pack.id, type: 'POINTS', channel: 'BALANCE' } })),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
    expect(answers.filter((a) => a.status === 400).every((a) => /余额不足/.test(a.body.errMessage ?? ''))).toBe(true)
    expect(await wallet(user.id)).toEqual({ points: 1200, balance: 0 })
    expect(await db().order.count({ where: { userId: user.id } })).toBe(10)
  })

  it('a balance recharge cannot be paid with the balance; a custom amount must be within the limits', async () => {
    const user = await createUser({ balance: 10_000 })
    expectFail(
      await callRoute(orders.POST, { token: user.token, body: { type: 'BALANCE', amount: 1000, channel: 'BALANCE' } }),
      400,
      /余额充值不能使用余额支付/,
    )
    expectFail(
      await callRoute(orders.POST, { token: user.token, body: { type: 'BALANCE', amount: 50, channel: 'WECHAT' } }),
      400,
      /充值金额须在 1.00 元到 5000.00 元之间/,
    )
    const { order } = await placeOrder(user.token, { type: 'BALANCE', amount: 1234, channel: 'WECHAT' })
    expect(order).toMatchObject({ amount: 1234, subject: '余额充值 12.34 元' })
  })
})

describe('one credit, whoever gets there first', () => {
  it('notification + active query + admin mark-paid racing, 20 times over: each order credited once', async () => {
    for (let run = 0; run < 20; run++) {
      const user = await createUser()
      const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
      await world.wechat.pay(order.outTradeNo, { notify: false })
      const n = world.wechat.notificationFor(order.outTradeNo)
      await Promise.all([
        post(n),
        post(n),
        queryProvider({ id: order.id, outTradeNo: order.outTradeNo, channel: 'WECHAT' }),
        callRoute(markPaid.POST, { token: admin.token, params: { id: order.id }, body: { reason: '客服核实已付款' } }),
      ])
      expect(await wallet(user.id)).toEqual({ points: 120, balance: 0 })
      expect(await db().chargeRecord.count({ where: { orderId: order.id } })).toBe(1)
    }
  })

  it('标记已支付 closes the payment code first, so it cannot be paid as well; a payment that beat it is credited as the payment', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    expectOk(await callRoute(markPaid.POST, { token: admin.token, params: { id: order.id }, body: { reason: '银行转账已核对' } }))
    expect(world.wechat.orders.get(order.outTradeNo)?.state).toBe('CLOSED')
    expect(await wallet(user.id)).toEqual({ points: 120, balance: 0 })

    const payer = await createUser()
    const paid = (await placeOrder(payer.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })).order
    await world.wechat.pay(paid.outTradeNo, { notify: false })
    expectFail(await callRoute(markPaid.POST, { token: admin.token, params: { id: paid.id }, body: { reason: '用户说付过了' } }), 400, '订单已经支付成功')
    expect(await db().order.findUniqueOrThrow({ where: { id: paid.id } })).toMatchObject({ status: 'SUCCESS', providerTxnId: expect.any(String) })
    expect(await wallet(payer.id)).toEqual({ points: 120, balance: 0 })
    expect(await ledgerMatchesColumns()).toBe(true)
  })

  it('a cancelled order cannot be cancelled twice; cancelling closes the trade at WeChat', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    expect(expectOk(await callRoute(cancel.POST, { token: user.token, params: { id: order.id } })).status).toBe('CANCELED')
    expect(world.wechat.orders.get(order.outTradeNo)?.state).toBe('CLOSED')
    expectFail(await callRoute(cancel.POST, { token: user.token, params: { id: order.id } }), 400, /待支付/)
  })

  it("another user's order is a 404, to read and to cancel", async () => {
    const owner = await createUser()
    const other = await createUser()
    const { order } = await placeOrder(owner.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    expectFail(await callRoute(orderById.GET, { token: other.token, params: { id: order.id } }), 404)
    expectFail(await callRoute(cancel.POST, { token: other.token, params: { id: order.id } }), 404)
    expect(expectOk(await callRoute(orders.GET, { token: other.token })).total).toBe(0)
  })
})

describe("a user's own orders", () => {
  it('answer what the Prisma queries they replaced answered, key for key: every page, ties, past the end, one order', async () => {
    const user = await createUser()
    const other = await createUser()
    const start = Date.UTC(2026, 1, 2, 3, 4, 5, 678)
    const statuses = ['SUCCESS', 'FAIL', 'PENDING', 'CANCELED'] as const
    const channels = ['WECHAT', 'ALIPAY', 'BALANCE'] as const
    for (let i = 0; i < 23; i++) {
      const channel = channels[i % 3]!
      const status = statuses[i % 4]!
      await db().order.create({
        data: {
          outTradeNo: `mine${i}x${user.id.slice(-8)}`,
          userId: i % 7 === 3 ? other.id : user.id,
          type: (['POINTS', 'BALANCE', 'MEMBERSHIP'] as const)[i % 3]!,
          grant: { points: i },
          subject: `订单 "${i}" \\ <b>`,
          amount: 100 * i + 1,
          channel,
          tradeType: channel === 'WECHAT' ? 'NATIVE' : null,
          alipayMethod: channel === 'ALIPAY' ? 'page' : null,
          status,
          paidAt: status === 'SUCCESS' ? new Date(start + i * 1000 + 321) : null,
          expiresAt: new Date(start + i * 1000 + 7_200_000),
          refundedAt: status === 'SUCCESS' && i % 2 ? new Date(start + i * 1000 + 999) : null,
          // Some made in the same millisecond: the id orders them.
          createdAt: new Date(start + (i - (i % 3 === 1 ? 1 : 0)) * 1000),
        },
      })
    }
    const previous = async (page: number, pageSize: number) => {
      const [list, total] = await Promise.all([
        db().order.findMany({
          where: { userId: user.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          select: ORDER_SELECT,
          skip: (page - 1) * pageSize,
          take: pageSize,
        }),
        db().order.count({ where: { userId: user.id } }),
      ])
      return { list, total }
    }
    for (const pageSize of [4, 20])
      for (let page = 1; page <= Math.ceil(20 / pageSize) + 1; page++)
        expect(JSON.stringify(await listMyOrders(user.id, { page, pageSize })), `${page}/${pageSize}`).toBe(JSON.stringify(await previous(page, pageSize)))
    const all = expectOk(await callRoute(orders.GET, { token: user.token, query: { page: 1, pageSize: 100 } }))
    expect(all).toEqual(JSON.parse(JSON.stringify(await previous(1, 100))))
    expect(all.total).toBe(20)

    // Every order that is not pending at a provider is answered from the first read alone.
    for (const order of await db().order.findMany({
      where: { userId: user.id, OR: [{ status: { not: 'PENDING' } }, { channel: 'BALANCE' }] },
      select: ORDER_SELECT,
    })) {
      expect(JSON.stringify(await getMyOrder(user.id, order.id))).toBe(JSON.stringify(order))
      expect(expectOk(await callRoute(orderById.GET, { token: user.token, params: { id: order.id } }))).toEqual(JSON.parse(JSON.stringify(order)))
    }
    const theirs = await db().order.findFirstOrThrow({ where: { userId: other.id } })
    expectFail(await callRoute(orderById.GET, { token: user.token, params: { id: theirs.id } }), 404)
  })
})

describe('memberships', () => {
  it('buying a plan twice extends it; its daily points come once a day and its discount applies to task prices', async () => {
    const user = await createUser({ balance: 10_000 })
    await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const first = await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const second = await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    expect(second.expiresAt.getTime() - first.expiresAt.getTime()).toBe(30 * 86_400_000)
    expect(second).toMatchObject({ planName: '月卡', dailyPoints: 20, discountPercent: 20 })

    const { getWallet } = await import('@/lib/payments/wallet')
    const shown = await Promise.all(Array.from({ length: 5 }, () => getWallet(user.id)))
    expect(shown.at(-1)).toMatchObject({ points: 20, membership: { planName: '月卡', dailyPoints: 20, discountPercent: 20 } })
    expect(await db().ledgerEntry.count({ where: { reference: `membership-daily:${user.id}:${beijingDay()}` } })).toBe(1)
  })
})

describe('a plan that gives less while a better one runs', () => {
  it('is refused before anything is charged; renewing, a plan as good, or the same plan after the end goes ahead', async () => {
    const premium = await createProductRow({ type: 'MEMBERSHIP', price: 9900, days: 30, dailyPoints: 100, discountPercent: 30, name: '尊享月卡' })
    const basic = await createProductRow({ type: 'MEMBERSHIP', price: 990, days: 7, dailyPoints: 10, discountPercent: 30, name: '体验周卡' })
    const better = await createProductRow({ type: 'MEMBERSHIP', price: 19900, days: 30, dailyPoints: 100, discountPercent: 50, name: '至尊月卡' })
    const user = await createUser({ balance: 100_000 })
    const membership = () => db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    await placeOrder(user.token, { productId: premium.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const before = await membership()

    for (const channel of ['BALANCE', 'WECHAT'] as const) {
      const refused = await callRoute(orders.POST, { token: user.token, body: { productId: basic.id, type: 'MEMBERSHIP', channel } })
      expectFail(refused, 409, '你的「尊享月卡」权益高于「体验周卡」，现在购买会降低剩余 30 天的权益，请到期后再购买')
    }
    expect(await db().order.count({ where: { userId: user.id, productId: basic.id } })).toBe(0)
    expect((await wallet(user.id)).balance).toBe(100_000 - 9900)
    expect(await membership()).toMatchObject({ planName: '尊享月卡', expiresAt: before.expiresAt })

    await placeOrder(user.token, { productId: premium.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    await placeOrder(user.token, { productId: better.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    expect(await membership()).toMatchObject({ planName: '至尊月卡', discountPercent: 50 })
    expect((await membership()).expiresAt.getTime() - before.expiresAt.getTime()).toBe(60 * 86_400_000)

    await db().membership.update({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } }, data: { expiresAt: new Date(Date.now() - 1000) } })
    await placeOrder(user.token, { productId: basic.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    expect(await membership()).toMatchObject({ planName: '体验周卡', dailyPoints: 10 })
    expect(await ledgerMatchesColumns()).toBe(true)
  })
})

describe('a lesser plan ordered before a better one and paid after it', () => {
  it("keeps the better benefits and adds what was paid in the better plan's days; its refund takes exactly those back", async () => {
    const premium = await createProductRow({ type: 'MEMBERSHIP', price: 9900, days: 30, dailyPoints: 100, discountPercent: 30, name: '尊享月卡' })
    const basic = await createProductRow({ type: 'MEMBERSHIP', price: 990, days: 7, dailyPoints: 10, discountPercent: 10, name: '体验周卡' })
    const user = await createUser({ balance: 100_000 })
    const membership = () => db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    // No plan runs yet: the basic order is made, and its QR code left open.
    const { order: pending } = await placeOrder(user.token, { productId: basic.id, type: 'MEMBERSHIP', channel: 'WECHAT' })
    await placeOrder(user.token, { productId: premium.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const before = await membership()
    await world.wechat.pay(pending.outTradeNo)

    const after = await membership()
    expect(after).toMatchObject({ planName: '尊享月卡', dailyPoints: 100, discountPercent: 30 })
    // 9.90 yuan at the premium plan's 99 yuan for 30 days: 3 days.
    expect(after.expiresAt.getTime() - before.expiresAt.getTime()).toBe(3 * 86_400_000)
    expect((await db().order.findUniqueOrThrow({ where: { id: pending.id } })).flag).toBe(
      '「体验周卡」低于正在使用的「尊享月卡」，已保留「尊享月卡」的权益，顺延 3 天',
    )

    // The premium order cannot go first: its benefits would stay on the days added at its price.
    const premiumOrder = await db().order.findFirstOrThrow({ where: { userId: user.id, productId: premium.id } })
    expectFail(
      await callRoute(refund.POST, { token: admin.token, params: { id: premiumOrder.id }, body: { reason: '用户申请退款' } }),
      400,
      '这笔会员订单之后还有按它的价格顺延的订单，请先退款那笔订单',
    )
    expect((await wallet(user.id)).balance).toBe(100_000 - 9900)
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: pending.id }, body: { reason: '用户申请退款' } }))
    expect(await membership()).toMatchObject({ planName: '尊享月卡', dailyPoints: 100, discountPercent: 30, expiresAt: before.expiresAt })
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: premiumOrder.id }, body: { reason: '用户申请退款' } }))
    expect((await wallet(user.id)).balance).toBe(100_000)
    expect((await membership()).expiresAt.getTime()).toBeLessThanOrEqual(Date.now())
    expect(await ledgerMatchesColumns()).toBe(true)
  })

  it('an earlier plan whose benefits were not kept is refunded as usual', async () => {
    const premium = await createProductRow({ type: 'MEMBERSHIP', price: 9900, days: 30, dailyPoints: 100, discountPercent: 30, name: '尊享月卡乙' })
    const middle = await createProductRow({ type: 'MEMBERSHIP', price: 4000, days: 30, dailyPoints: 50, discountPercent: 20, name: '进阶月卡' })
    const user = await createUser({ balance: 100_000 })
    const { order: first } = await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const { order: pending } = await placeOrder(user.token, { productId: middle.id, type: 'MEMBERSHIP', channel: 'WECHAT' })
    const { order: better } = await placeOrder(user.token, { productId: premium.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    await world.wechat.pay(pending.outTradeNo)
    expect((await db().order.findUniqueOrThrow({ where: { id: pending.id } })).flag).toMatch(/已保留「尊享月卡乙」的权益/)
    // The first plan's benefits were not what the late order kept: its refund goes ahead; the premium one waits for that order's.
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: first.id }, body: { reason: '用户申请退款' } }))
    expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: better.id }, body: { reason: '用户申请退款' } }), 400, /请先退款那笔订单/)
    expect(await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })).toMatchObject({ planName: '尊享月卡乙' })
  })

  it('renewing a plan whose benefits the console lowered keeps the benefits paid for, at the price paid for them', async () => {
    const month = await createProductRow({ type: 'MEMBERSHIP', price: 3000, days: 30, dailyPoints: 50, discountPercent: 40, name: '调价月卡' })
    const user = await createUser({ balance: 100_000 })
    const membership = () => db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    await placeOrder(user.token, { productId: month.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const before = await membership()
    expectOk(
      await callRoute(adminProduct.PATCH, {
        method: 'PATCH',
        token: admin.token,
        params: { id: String(month.id) },
        body: { price: 1500, dailyPoints: 10, discountPercent: 10 },
      }),
    )
    const { order } = await placeOrder(user.token, { productId: month.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const after = await membership()
    expect(after).toMatchObject({ planName: '调价月卡', dailyPoints: 50, discountPercent: 40 })
    // 15 yuan at the 30 yuan for 30 days paid before: 15 days.
    expect(after.expiresAt.getTime() - before.expiresAt.getTime()).toBe(15 * 86_400_000)
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).flag).toBe('「调价月卡」的权益已调低，已保留原权益，顺延 15 天')
    // Renewed again: still at the price first paid, not at the converted renewal's.
    await placeOrder(user.token, { productId: month.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    expect((await membership()).expiresAt.getTime() - after.expiresAt.getTime()).toBe(15 * 86_400_000)
  })
})

describe('memberships settled at once', () => {
  it("two plans' fulfilments in overlapping transactions add both plans' days", async () => {
    const { extendMembership } = await import('@/lib/memberships/extend-membership')
    const user = await createUser()
    const grant = { kind: 'IMAGE' as const, productId: plan.id, planName: '月卡', days: 30 }
    const start = await db().$transaction((tx) => extendMembership(tx, user.id, grant))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // The first stays open after its extension; the second runs meanwhile.
    const first = db().$transaction(async (tx) => {
      await extendMembership(tx, user.id, grant)
      await held
    })
    await new Promise((r) => setTimeout(r, 100))
    const second = db().$transaction((tx) => extendMembership(tx, user.id, grant))
    await new Promise((r) => setTimeout(r, 200))
    release()
    await Promise.all([first, second])
    const row = await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    expect(row.expiresAt.getTime() - new Date(start.to).getTime()).toBe(60 * 86_400_000)
  })
})

describe('a plan of many days', () => {
  it('is refused over 36500 days, and plans stacked past the year 9999 end on its last day', async () => {
    const { extendMembership } = await import('@/lib/memberships/extend-membership')
    const forever = await createProductRow({ type: 'MEMBERSHIP', price: 100, days: 30, name: '永久卡' })
    const patch = (days: number) => callRoute(adminProduct.PATCH, { method: 'PATCH', token: admin.token, params: { id: String(forever.id) }, body: { days } })
    expectFail(await patch(99_999_999), 400, '天数最多 36500 天')
    // One saved before the limit can still be taken off sale.
    await db().product.update({ where: { id: forever.id }, data: { days: 99_999_999 } })
    const off = callRoute(adminProduct.PATCH, { method: 'PATCH', token: admin.token, params: { id: String(forever.id) }, body: { enabled: false } })
    expect(expectOk(await off)).toMatchObject({ enabled: false, days: 99_999_999 })
    expectOk(
      await callRoute(adminProduct.PATCH, { method: 'PATCH', token: admin.token, params: { id: String(forever.id) }, body: { days: 36_500, enabled: true } }),
    )
    const user = await createUser({ balance: 1_000 })
    await db().membership.create({ data: { userId: user.id, kind: 'IMAGE', expiresAt: new Date('9990-01-01T00:00:00Z'), planName: '永久卡' } })
    const grant = { kind: 'IMAGE' as const, productId: forever.id, planName: '永久卡', days: 36_500 }
    const period = await db().$transaction((tx) => extendMembership(tx, user.id, grant))
    expect(period.to).toBe('9999-12-31T00:00:00.000Z')
    // Bought once more with the balance: paid, and the membership stays on that last day.
    await placeOrder(user.token, { productId: forever.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const row = await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    expect(row.expiresAt.toISOString()).toBe('9999-12-31T00:00:00.000Z')
    expect(await ledgerMatchesColumns()).toBe(true)
  })
})

describe('video material with the balance', () => {
  /** A published paid item at 300 cents, its files named by `key`. */
  const paidVideo = (title: string, key: string) =>
    db().video.create({
      data: {
        title,
        kind: 'PAID',
        price: 300,
        durationSec: 2,
        width: 320,
        height: 240,
        size: 1,
        fileKey: `private/${key}.mp4`,
        posterKey: `${key}.jpg`,
        published: true,
      },
    })

  it('the same item bought from five tabs at once is charged once; the others are 409 已购买', async () => {
    const video = await paidVideo('并发购买', 'race')
    const user = await createUser({ balance: 2000 })
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        callRoute(orders.POST, {
          token: user.token,
          body: { type: 'BUY_VIDEO_MATERIAL', videoIds: [video.id], channel: 'BALANCE' },
          headers: { 'idempotency-key': `tab-${i}-${video.id}` },
        }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409])
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 1700 })
    expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'ORDER_PAYMENT' } })).toBe(1)
    expect(await db().order.count({ where: { userId: user.id } })).toBe(1)
    expect(await ledgerMatchesColumns()).toBe(true)
  })

  it('bought with the balance while a WeChat order of the same item settles: 409 已购买 and the balance untouched', async () => {
    const video = await paidVideo('并发结算', 'race2')
    const user = await createUser({ balance: 2000 })
    const { order: wechatOrder } = await placeOrder(user.token, { type: 'BUY_VIDEO_MATERIAL', videoIds: [video.id], channel: 'WECHAT' })
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // The WeChat order's fulfilment has written its purchase and not yet committed.
    const settling = db().$transaction(async (tx) => {
      await tx.videoPurchase.create({ data: { userId: user.id, videoId: video.id, orderId: wechatOrder.id, price: 300 } })
      await held
    })
    await new Promise((r) => setTimeout(r, 100))
    const balance = callRoute(orders.POST, { token: user.token, body: { type: 'BUY_VIDEO_MATERIAL', videoIds: [video.id], channel: 'BALANCE' } })
    await new Promise((r) => setTimeout(r, 300))
    release()
    await settling
    expectFail(await balance, 409, '已购买')
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 2000 })
    expect(await db().order.count({ where: { userId: user.id, channel: 'BALANCE' } })).toBe(0)
    expect(await ledgerMatchesColumns()).toBe(true)
  })
})

describe('refunds', () => {
  /** A paid WeChat order whose refund WeChat answered PROCESSING: claimed, its points taken back, waiting for the answer. */
  async function refundUnderWay() {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    world.wechat.settings.refundAnswer = 'processing'
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } })).refundedAt).toBeNull()
    } finally {
      world.wechat.settings.refundAnswer = 'made'
    }
    return { user, order }
  }

  it('a paid WeChat order is refunded at WeChat and its points are taken back; a second refund is refused', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    expect(await wallet(user.id)).toEqual({ points: 120, balance: 0 })
    const done = expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户申请退款' } }))
    expect(done.refundedAt).not.toBeNull()
    expect(world.wechat.orders.get(order.outTradeNo)?.refunds).toHaveLength(1)
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    expect(await db().chargeRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: 'CANCELED' })
    expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再退一次' } }), 400, /已退款/)
  })

  it('a refund whose answer is lost is neither given back nor made twice: the worker asks again with its number and finishes it', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    world.wechat.settings.refundAnswer = 'lost'
    try {
      // WeChat refunded the money, but its answer never came: the order waits, the points stay taken back.
      const waiting = expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户申请退款' } }))
      expect(waiting).toMatchObject({ refundedAt: null, refundReason: '用户申请退款' })
    } finally {
      world.wechat.settings.refundAnswer = 'made'
    }
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    expect(backgroundJobs().find((job) => job.name === RETRY_REFUNDS_JOB)?.intervalMs).toBeLessThanOrEqual(REFUND_RETRY_AFTER_MS)
    expect(await retryRefunds()).toBe(0) // asked a moment ago: not yet
    expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(1)
    const refunds = world.wechat.orders.get(order.outTradeNo)!.refunds
    expect(refunds).toHaveLength(1)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundedAt: true, refundNo: true, flag: true } })).toMatchObject({
      refundedAt: expect.any(Date),
      refundNo: refunds[0]!.outRefundNo,
      flag: null,
    })
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    expect(await retryRefunds(new Date(Date.now() + 10 * REFUND_RETRY_AFTER_MS))).toBe(0)
  })

  it('one asking at a time: a second press, or the worker, while WeChat has not yet answered the first is refused and asks nothing', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    let answer = () => {}
    world.wechat.settings.refundHeld = new Promise<void>((resolve) => (answer = resolve))
    const asked = () => world.wechat.calls.filter((call) => call.method === 'POST' && call.path === '/v3/refund/domestic/refunds').length
    const before = asked()
    const first = callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户申请退款' } })
    try {
      await expect.poll(asked).toBe(before + 1)
      expectFail(
        await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } }),
        409,
        '该订单的退款正在向支付平台确认，请稍后刷新查看结果',
      )
      expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(0)
      expect(asked()).toBe(before + 1)
    } finally {
      answer()
    }
    expect(expectOk(await first).refundedAt).not.toBeNull()
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundAskingUntil: true } })).toEqual({ refundAskingUntil: null })
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(1)
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    expect(await db().ledgerEntry.count({ where: { reference: { startsWith: `order:${order.id}:refund` } } })).toBe(1)
  })

  it('an asking that outlived its lease does not end the turn another asking has taken since', async () => {
    const { order } = await refundUnderWay()
    // A slow asker whose lease ran out; the worker takes the turn, then the slow one finishes.
    const stale = new Date(Date.now() - 1_000)
    await db().order.update({ where: { id: order.id }, data: { refundAskingUntil: stale } })
    const { refundNo } = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundNo: true } })
    const claimed = { id: order.id, refundNo: refundNo! }
    const taken = await takeAskingTurnOf(claimed)
    expect(taken).toEqual(expect.any(Date))
    await endAskingTurn(claimed, stale)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundAskingUntil: true } })).toEqual({ refundAskingUntil: taken })
    expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } }), 409, /正在向支付平台确认/)
    await endAskingTurn(claimed, taken!)
    expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } })).refundedAt).not.toBeNull()
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(1)
  })

  it("WeChat's PROCESSING waits; the admin's second press asks again with the same number and finishes it", async () => {
    const { user, order } = await refundUnderWay()
    expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } })).refundedAt).not.toBeNull()
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(1)
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    expect(await db().ledgerEntry.count({ where: { reference: { startsWith: `order:${order.id}:refund` } } })).toBe(1)
  })

  it('settings found incomplete while a refund waits for its answer keep it waiting, and it finishes once they are whole', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    world.wechat.settings.refundAnswer = 'processing' // WeChat has the refund under way
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } })).refundedAt).toBeNull()
      await configure(admin.token, { WXPAY_API_V3_KEY: '' }) // an operator half-way through changing the keys
      expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(1)
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } })).refundedAt).toBeNull()
      expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundNo: true, refundedAt: true, flag: true } })).toEqual({
        refundNo: expect.any(String),
        refundedAt: null,
        flag: null,
      })
      expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    } finally {
      world.wechat.settings.refundAnswer = 'made'
      await configureMerchants(admin.token, world)
    }
    expect(await retryRefunds(new Date(Date.now() + 3 * REFUND_RETRY_AFTER_MS))).toBe(1)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundedAt: true } })).toEqual({ refundedAt: expect.any(Date) })
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(1)
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
  })

  it('settings found incomplete when a paid order (its notification lost) expires: it stays pending, and is credited once they are whole', async () => {
    for (const channel of ['WECHAT', 'ALIPAY'] as const) {
      const user = await createUser()
      const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel, ...(channel === 'ALIPAY' ? { alipayMethod: 'qr' } : {}) })
      if (channel === 'WECHAT') await world.wechat.pay(order.outTradeNo, { notify: false })
      else await world.alipay.pay(order.outTradeNo, { notify: false })
      try {
        await configure(admin.token, channel === 'WECHAT' ? { WXPAY_API_V3_KEY: '' } : { ALIPAY_PRIVATE_KEY: '' })
        const afterExpiry = new Date(new Date(order.expiresAt).getTime() + 60_000)
        await reconcileOrders(afterExpiry)
        expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'PENDING' })
        // Neither can the user cancel it: it may have been paid.
        expectFail(await callRoute(cancel.POST, { token: user.token, params: { id: order.id } }), 400, '暂时无法在支付平台关闭订单，请稍后再试')
      } finally {
        await configureMerchants(admin.token, world)
      }
      await reconcileOrders(new Date(new Date(order.expiresAt).getTime() + 11 * 60_000))
      expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'SUCCESS' })
      expect(await wallet(user.id)).toEqual({ points: 120, balance: 0 })
    }
  })

  it('asked again, a refusal is checked with the refund query: a refund the first asking made is done and nothing is given back', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    world.wechat.settings.refundAnswer = 'lost'
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户申请退款' } })).refundedAt).toBeNull()
      world.wechat.settings.refundRefusal = { status: 400, code: 'INVALID_REQUEST', message: '订单已全额退款' }
      expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(1)
    } finally {
      world.wechat.settings.refundAnswer = 'made'
      world.wechat.settings.refundRefusal = null
    }
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundedAt: true, flag: true } })).toEqual({
      refundedAt: expect.any(Date),
      flag: null,
    })
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(1)
    expect(world.wechat.calls.some((call) => call.method === 'GET' && call.path.startsWith('/v3/refund/domestic/refunds/'))).toBe(true)
  })

  it('asked again, a refusal of a refund the query shows under way keeps the order waiting', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    world.wechat.settings.refundAnswer = 'processing'
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } })).refundedAt).toBeNull()
      world.wechat.settings.refundRefusal = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' }
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '再按一次' } })).refundedAt).toBeNull()
    } finally {
      world.wechat.settings.refundAnswer = 'made'
      world.wechat.settings.refundRefusal = null
    }
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundNo: true, refundedAt: true } })).toEqual({
      refundNo: expect.any(String),
      refundedAt: null,
    })
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
    // Asked again once WeChat answers for it, the refund is done.
    expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(1)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundedAt: true } })).toEqual({ refundedAt: expect.any(Date) })
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(1)
  })

  it('a refusal the worker hears gives the points back once and flags the order for the console', async () => {
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    world.wechat.failAll({ status: 500, code: 'SYSTEM_ERROR', message: '系统繁忙' })
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } })).refundedAt).toBeNull()
      expect(await wallet(user.id)).toEqual({ points: 0, balance: 0 })
      world.wechat.failAll(null)
      // Asked again, the refusal is checked with the refund query, which shows no refund by that number.
      world.wechat.settings.refundRefusal = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' }
      const later = new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000)
      expect((await Promise.all([retryRefunds(later), retryRefunds(later)])).reduce((a, b) => a + b)).toBe(1)
    } finally {
      world.wechat.failAll(null)
      world.wechat.settings.refundRefusal = null
    }
    expect(await wallet(user.id)).toEqual({ points: 120, balance: 0 })
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundNo: true, refundedAt: true, flag: true } })).toEqual({
      refundNo: null,
      refundedAt: null,
      flag: '微信支付退款失败：基本账户余额不足；用户所得已退回，请核实',
    })
    expect(await db().chargeRecord.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: 'SUCCESS' })
    expect(world.wechat.orders.get(order.outTradeNo)!.refunds).toHaveLength(0)
  })

  it('when the user already spent the points, the refund is refused and nothing moves', async () => {
    const user = await createUser({ balance: 100 })
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'BALANCE' })
    await db().$transaction((tx) =>
      import('@/lib/ledger/post-movement').then(({ postMovement }) =>
        postMovement(tx, { userId: user.id, account: 'POINTS', kind: 'TASK_CHARGE', amount: -100, reference: `spend:${user.id}` }),
      ),
    )
    expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } }), 400, /无法全额退款/)
    expect(await wallet(user.id)).toEqual({ points: 20, balance: 0 })
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { refundNo: true } })).toEqual({ refundNo: null })
  })

  it('a balance-paid order gives the money back to the balance; WeChat refusing a refund gives the points back', async () => {
    const user = await createUser({ balance: 100 })
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'BALANCE' })
    expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '退款' } }))
    expect(await wallet(user.id)).toEqual({ points: 0, balance: 100 })

    const buyer = await createUser()
    const paid = await placeOrder(buyer.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(paid.order.outTradeNo)
    world.wechat.failAll({ status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' })
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: paid.order.id }, body: { reason: '退款' } }), 503, /微信支付退款失败/)
    } finally {
      world.wechat.failAll(null)
    }
    expect(await wallet(buyer.id)).toEqual({ points: 120, balance: 0 })
    expect(await db().order.findUniqueOrThrow({ where: { id: paid.order.id }, select: { refundNo: true, refundedAt: true } })).toEqual({
      refundNo: null,
      refundedAt: null,
    })
  })

  it("a membership order's refund takes back only what is still ahead of its own days, and the plan it replaced comes back", async () => {
    const membership = (userId: string) => db().membership.findUniqueOrThrow({ where: { userId_kind: { userId, kind: 'IMAGE' } } })
    const near = (date: Date, days: number) => expect(Math.abs(date.getTime() - (Date.now() + days * 86_400_000))).toBeLessThan(60_000)
    const refundOf = async (id: string) => expectOk(await callRoute(refund.POST, { token: admin.token, params: { id }, body: { reason: '退款' } }))

    // A plan that ran out in the past, then a new one: refunding the old one leaves the new one's 30 days.
    const user = await createUser({ balance: 10_000 })
    const old = await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const day = 86_400_000
    const lapsed = { from: new Date(Date.now() - 60 * day).toISOString(), to: new Date(Date.now() - 30 * day).toISOString() }
    const replaced = null
    await db().order.update({ where: { id: old.order.id }, data: { membershipPeriod: { ...lapsed, replaced } } })
    await db().membership.update({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } }, data: { expiresAt: new Date(lapsed.to) } })
    await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    await refundOf(old.order.id)
    near((await membership(user.id)).expiresAt, 30)

    // A week's plan with more benefits bought on top of the month's, then refunded: the month's plan and end come back.
    const week = await createProductRow({ type: 'MEMBERSHIP', price: 1000, days: 7, dailyPoints: 100, discountPercent: 50, name: '周卡' })
    const member = await createUser({ balance: 10_000 })
    await placeOrder(member.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const extra = await placeOrder(member.token, { productId: week.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    expect(await membership(member.id)).toMatchObject({ planName: '周卡', discountPercent: 50, dailyPoints: 100 })
    near((await membership(member.id)).expiresAt, 37)
    await refundOf(extra.order.id)
    const after = await membership(member.id)
    expect(after).toMatchObject({ planName: '月卡', discountPercent: 20, dailyPoints: 20, productId: plan.id })
    near(after.expiresAt, 30)

    // The month's plan refunded while the week's is stacked after it: the week's 7 days stay, from now.
    const stacked = await createUser({ balance: 10_000 })
    const month = await placeOrder(stacked.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    await placeOrder(stacked.token, { productId: week.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    await refundOf(month.order.id)
    expect(await membership(stacked.id)).toMatchObject({ planName: '周卡', discountPercent: 50 })
    near((await membership(stacked.id)).expiresAt, 7)
  })

  it('refunds of plans stacked one after another each take their own days, and an undo puts everything back', async () => {
    const { takeBackMembership, undoTakeBack } = await import('@/lib/memberships/extend-membership')
    const day = 86_400_000
    const user = await createUser({ balance: 20_000 })
    const orders = []
    for (let i = 0; i < 3; i++) orders.push((await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })).order.id as string)
    const stretch = async (id: string) =>
      (await db().order.findUniqueOrThrow({ where: { id }, select: { membershipPeriod: true } })).membershipPeriod as {
        from: string
        to: string
        replaced: null
      }
    const t0 = new Date((await stretch(orders[0]!)).from).getTime()
    const end = async () => (await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })).expiresAt.getTime()
    const takeBack = (id: string, at: number) =>
      db().$transaction(async (tx) => takeBackMembership(tx, user.id, 'IMAGE', { id, days: 30, period: await stretch(id) }, new Date(at)))
    expect(await end()).toBe(t0 + 90 * day)

    // Day 10: the first plan goes (20 days ahead of it); the other two move 20 days earlier.
    await takeBack(orders[0]!, t0 + 10 * day)
    expect(await end()).toBe(t0 + 70 * day)
    expect(await stretch(orders[1]!)).toMatchObject({ from: new Date(t0 + 10 * day).toISOString(), to: new Date(t0 + 40 * day).toISOString() })
    // Day 20: the second plan has 20 of its days left; the third keeps all 30.
    const undo = await takeBack(orders[1]!, t0 + 20 * day)
    expect(await end()).toBe(t0 + 50 * day)

    // The provider refused that second refund: its days and the third plan's place come back.
    await db().$transaction((tx) => undoTakeBack(tx, user.id, undo!))
    expect(await end()).toBe(t0 + 70 * day)
    expect(await stretch(orders[2]!)).toMatchObject({ from: new Date(t0 + 40 * day).toISOString(), to: new Date(t0 + 70 * day).toISOString() })
  })

  it('refunding a plan in the middle of a stack, then the last one, brings back the first plan, not the refunded one', async () => {
    const { takeBackMembership, undoTakeBack } = await import('@/lib/memberships/extend-membership')
    const premium = await createProductRow({ type: 'MEMBERSHIP', price: 5000, days: 30, dailyPoints: 500, discountPercent: 50, name: '至尊卡' })
    const membership = (userId: string) => db().membership.findUniqueOrThrow({ where: { userId_kind: { userId, kind: 'IMAGE' } } })
    const near = (date: Date, days: number) => expect(Math.abs(date.getTime() - (Date.now() + days * 86_400_000))).toBeLessThan(60_000)
    const refundOf = async (id: string) => expectOk(await callRoute(refund.POST, { token: admin.token, params: { id }, body: { reason: '退款' } }))
    const top = await createProductRow({ type: 'MEMBERSHIP', price: 8000, days: 30, dailyPoints: 600, discountPercent: 60, name: '至尊年卡' })
    const basic = { planName: '月卡', discountPercent: 20, dailyPoints: 20, productId: plan.id }

    // Each plan gives more than the one before; the last one's benefits replaced the premium one's.
    const stackOnTop = async (token: string) => {
      await placeOrder(token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
      const middle = (await placeOrder(token, { productId: premium.id, type: 'MEMBERSHIP', channel: 'BALANCE' })).order.id as string
      const last = (await placeOrder(token, { productId: top.id, type: 'MEMBERSHIP', channel: 'BALANCE' })).order.id as string
      return { middle, last }
    }
    const user = await createUser({ balance: 20_000 })
    const { middle, last } = await stackOnTop(user.token)
    await refundOf(middle)
    expect(await membership(user.id)).toMatchObject({ planName: '至尊年卡', dailyPoints: 600 })
    near((await membership(user.id)).expiresAt, 60)
    await refundOf(last)
    // Neither premium plan's benefits outlive its refund: the first plan's 30 days, with its own.
    expect(await membership(user.id)).toMatchObject(basic)
    near((await membership(user.id)).expiresAt, 30)

    // The same middle refund refused by the provider (undone): the last plan again replaced the premium one.
    const other = await createUser({ balance: 20_000 })
    const { middle: mid, last: end } = await stackOnTop(other.token)
    const periodOf = async (id: string) => (await db().order.findUniqueOrThrow({ where: { id }, select: { membershipPeriod: true } })).membershipPeriod as never
    const before = await periodOf(end)
    const undo = await db().$transaction(async (tx) => takeBackMembership(tx, other.id, 'IMAGE', { id: mid, days: 30, period: await periodOf(mid) }))
    await db().$transaction((tx) => undoTakeBack(tx, other.id, undo!))
    expect(await periodOf(end)).toEqual(before)
  })

  it('an undone refund keeps the benefits of a plan bought while the provider was asked', async () => {
    const { extendMembership, takeBackMembership, undoTakeBack } = await import('@/lib/memberships/extend-membership')
    const week = await createProductRow({ type: 'MEMBERSHIP', price: 900, days: 7, dailyPoints: 20, discountPercent: 40, name: '周卡三' })
    const user = await createUser({ balance: 10_000 })
    await placeOrder(user.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const second = (await placeOrder(user.token, { productId: week.id, type: 'MEMBERSHIP', channel: 'BALANCE' })).order.id as string
    const { membershipPeriod } = await db().order.findUniqueOrThrow({ where: { id: second }, select: { membershipPeriod: true } })
    const undo = await db().$transaction((tx) => takeBackMembership(tx, user.id, 'IMAGE', { id: second, days: 7, period: membershipPeriod as never }))
    expect(await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })).toMatchObject({ planName: '月卡' })
    await db().$transaction((tx) =>
      extendMembership(tx, user.id, { kind: 'IMAGE', productId: null, planName: '年卡', days: 365, dailyPoints: 20, discountPercent: 30 }),
    )
    await db().$transaction((tx) => undoTakeBack(tx, user.id, undo!))
    const row = await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: user.id, kind: 'IMAGE' } } })
    expect(row).toMatchObject({ planName: '年卡', discountPercent: 30 })
    expect(Math.abs(row.expiresAt.getTime() - (Date.now() + (30 + 7 + 365) * 86_400_000))).toBeLessThan(60_000)
  })

  it("WeChat refusing a membership order's refund puts its days and benefits back", async () => {
    const week = await createProductRow({ type: 'MEMBERSHIP', price: 900, days: 7, dailyPoints: 20, discountPercent: 40, name: '周卡二' })
    const buyer = await createUser({ balance: 10_000 })
    await placeOrder(buyer.token, { productId: plan.id, type: 'MEMBERSHIP', channel: 'BALANCE' })
    const paid = await placeOrder(buyer.token, { productId: week.id, type: 'MEMBERSHIP', channel: 'WECHAT' })
    await world.wechat.pay(paid.order.outTradeNo)
    const before = await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: buyer.id, kind: 'IMAGE' } } })
    world.wechat.failAll({ status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' })
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: paid.order.id }, body: { reason: '退款' } }), 503, /微信支付退款失败/)
    } finally {
      world.wechat.failAll(null)
    }
    expect(await db().membership.findUniqueOrThrow({ where: { userId_kind: { userId: buyer.id, kind: 'IMAGE' } } })).toEqual(
      expect.objectContaining({ expiresAt: before.expiresAt, planName: '周卡二', discountPercent: 40 }),
    )

    // The log says what happened: the refund claimed, then refused and given back.
    const audit = await db().adminAuditLog.findMany({ where: { targetId: paid.order.id }, orderBy: { id: 'asc' }, select: { action: true, reason: true } })
    expect(audit).toEqual([
      { action: 'order.refund', reason: '退款' },
      { action: 'order.refund_refused', reason: expect.stringMatching(/^微信支付退款失败：/) },
    ])
  })

  it('a MANAGER may look but not refund or mark paid', async () => {
    const manager = await createUser({ role: 'MANAGER' })
    const user = await createUser()
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    expectOk(await callRoute(adminOrder.GET, { token: manager.token, params: { id: order.id } }))
    expectFail(await callRoute(markPaid.POST, { token: manager.token, params: { id: order.id }, body: { reason: 'x' } }), 403)
    expectFail(await callRoute(refund.POST, { token: manager.token, params: { id: order.id }, body: { reason: 'x' } }), 403)
  })
})

describe('the console', () => {
  it('finds orders by user and channel, shows every notification, and sums revenue per Beijing day', async () => {
    const user = await createUser({ name: '查找我' })
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
    await world.wechat.pay(order.outTradeNo)
    const found = expectOk(await callRoute(adminOrders.GET, { token: admin.token, query: { user: '查找我', channel: 'WECHAT', status: 'SUCCESS' } }))
    expect(found).toMatchObject({ total: 1, list: [{ id: order.id, user: { id: user.id } }] })
    const detail = expectOk(await callRoute(adminOrder.GET, { token: admin.token, params: { id: order.id } }))
    expect(detail).toMatchObject({ notificationCount: 1, providerTxnId: expect.any(String), paidAt: expect.any(String) })
    expect(detail.notifications).toMatchObject([{ channel: 'WECHAT', outcome: 'credited' }])
    // A list row is what the table shows, the same values as the detail's.
    const row = found.list[0]
    expect(Object.keys(row)).toEqual('id outTradeNo type subject amount channel tradeType alipayMethod status createdAt refundedAt flag user'.split(' '))
    expect(row).toEqual(Object.fromEntries(Object.keys(row).map((key) => [key, detail[key]])))
    // Byte for byte what the Prisma query made: with a second notification (no detail, no event id),
    // and an unpaid order with none (its nulls); an unknown order is 404.
    await db().paymentNotification.create({ data: { channel: 'WECHAT', orderId: order.id, outTradeNo: order.outTradeNo, outcome: 'duplicate', raw: '{}' } })
    const unpaid = (await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })).order
    for (const id of [order.id, unpaid.id]) {
      const answer = expectOk(await callRoute(adminOrder.GET, { token: admin.token, params: { id } }))
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await prismaOrderDetail(id)))
    }
    expect(expectOk(await callRoute(adminOrder.GET, { token: admin.token, params: { id: order.id } })).notificationCount).toBe(2)
    expectFail(await callRoute(adminOrder.GET, { token: admin.token, params: { id: 'no-such-order' } }), 404, /订单不存在/)

    const today = beijingDay()
    const days = expectOk(await callRoute(chargeGroup.GET, { token: admin.token, query: { from: today, to: today } })).list
    // Money that came in: orders paid from the balance spend money counted when it was recharged.
    const all = await db().chargeRecord.aggregate({ where: { status: 'SUCCESS', channel: { not: 'BALANCE' } }, _sum: { amount: true }, _count: true })
    expect(days).toEqual([{ date: today, amount: all._sum.amount, count: all._count, byType: expect.any(Object), byChannel: expect.any(Object) }])
    expect(days[0].byChannel.WECHAT).toBeGreaterThanOrEqual(100)
    expect(await db().chargeRecord.count({ where: { status: 'SUCCESS', channel: 'BALANCE' } })).toBeGreaterThan(0)
    expect(days[0].byChannel.BALANCE).toBeUndefined()
    const chart = expectOk(await callRoute(analysis.GET, { token: admin.token, query: { from: today, to: today } })).days
    expect(chart[0]).toMatchObject({ date: today, revenue: all._sum.amount, newUsers: expect.any(Number), pointsIssued: expect.any(Number) })
    expectFail(await callRoute(chargeGroup.GET, { token: admin.token, query: { from: '2026-01-02', to: '2026-01-01' } }), 400, /结束日期/)
  })

  it('a charge record status change is ADMIN only, audited, and moves no money', async () => {
    const user = await createUser({ balance: 100 })
    const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'BALANCE' })
    const record = await db().chargeRecord.findUniqueOrThrow({ where: { orderId: order.id } })
    const manager = await createUser({ role: 'MANAGER' })
    expectFail(await callRoute(chargeStatus.POST, { token: manager.token, params: { id: String(record.id) }, body: { status: 'FAIL' } }), 403)
    const changed = expectOk(
      await callRoute(chargeStatus.POST, { token: admin.token, params: { id: String(record.id) }, body: { status: 'FAIL', note: '核对有误' } }),
    )
    expect(changed).toMatchObject({ status: 'FAIL', note: '核对有误' })
    expect(await db().adminAuditLog.count({ where: { action: 'charge-record.status', targetId: String(record.id) } })).toBe(1)
    expect(await wallet(user.id)).toEqual({ points: 120, balance: 0 })
    const listed = expectOk(await callRoute(chargeRecords.GET, { token: admin.token, query: { userId: user.id } }))
    expect(listed).toMatchObject({ total: 1, list: [{ outTradeNo: order.outTradeNo, status: 'FAIL' }] })
    // The list's row (written by PostgreSQL) is, byte for byte, the record as the status call answers it.
    expect(JSON.stringify(listed.list[0])).toBe(JSON.stringify(changed))
  })
})

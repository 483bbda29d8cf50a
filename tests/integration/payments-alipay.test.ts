// Alipay through the classic gateway (docs/PRODUCT.md §14, docs/PROTOCOLS.md §10): page, wap and QR
// orders, notifications checked with alipay-sdk's checkNotifySignV2 plus app_id, seller and amount,
// TRADE_FINISHED after TRADE_SUCCESS, and lost notifications settled by the active query.
import { createVerify } from 'node:crypto'
import { AlipaySdk } from 'alipay-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as alipayNotify from '@/app/api/pay/alipay/notify/route'
import * as markPaid from '@/app/api/admin/orders/[id]/mark-paid/route'
import * as refund from '@/app/api/admin/orders/[id]/refund/route'
import * as cancelOrder from '@/app/api/orders/[id]/cancel/route'
import { db } from '@/lib/db'
import { LAST_LOOK_AFTER_EXPIRY_MS } from '@/lib/payments/provider-status'
import { reconcileOrders } from '@/lib/payments/reconcile-orders'
import { REFUNDED_AT_ALIPAY, REFUNDED_AT_ALIPAY_AFTER_GRANT } from '@/lib/payments/settle-paid'
import { REFUND_RETRY_AFTER_MS, retryRefunds } from '@/lib/payments/retry-refunds'
import { alipaySignContent } from '../fakes/alipay'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configureMerchants, createProductRow, ledgerMatchesColumns, placeOrder, startPaymentWorld, type PaymentWorld } from '../helpers/payments'

let world: PaymentWorld
let pack: { id: number }
let admin: { token: string }

beforeAll(async () => {
  world = await startPaymentWorld()
  admin = await createUser({ role: 'ADMIN' })
  await configureMerchants(admin.token, world)
  pack = await createProductRow({ type: 'POINTS', price: 1230, points: 500, name: '500 积分' })
})

afterAll(async () => {
  expect(await ledgerMatchesColumns()).toBe(true)
  await world.close()
})

const points = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId }, select: { points: true } })).points
const notify = async (body: string) => {
  const res = await alipayNotify.POST(
    new Request('http://localhost/api/pay/alipay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
  )
  return { status: res.status, text: await res.text() }
}

async function pendingOrder(alipayMethod: 'page' | 'wap' | 'qr' = 'qr') {
  const user = await createUser()
  const { order, payment } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'ALIPAY', alipayMethod, returnPath: '/text2img' })
  return { user, order, payment }
}

describe('making an Alipay order', () => {
  it('page pay: a GET link to the gateway signed with the app key, returning to the page the user came from', async () => {
    const { order, payment } = await pendingOrder('page')
    const url = new URL(payment.alipayUrl)
    expect(url.origin + url.pathname).toBe(world.alipay.gateway)
    const params = Object.fromEntries(url.searchParams)
    expect(params).toMatchObject({
      method: 'alipay.trade.page.pay',
      app_id: world.alipay.keys.appId,
      sign_type: 'RSA2',
      notify_url: `${world.siteUrl}/api/pay/alipay/notify`,
    })
    expect(params.return_url).toBe(`${world.siteUrl}/text2img?order=${order.id}`)
    expect(JSON.parse(params.biz_content!)).toMatchObject({ out_trade_no: order.outTradeNo, total_amount: '12.30', product_code: 'FAST_INSTANT_TRADE_PAY' })
    const signed = createVerify('RSA-SHA256')
      .update(alipaySignContent(params, ['sign']))
      .verify(world.alipay.keys.appPublicKey, params.sign!, 'base64')
    expect(signed).toBe(true)
  })

  it('wap pay uses QUICK_WAP_WAY; QR answers the precreate qr_code', async () => {
    const wap = await pendingOrder('wap')
    expect(JSON.parse(new URL(wap.payment.alipayUrl).searchParams.get('biz_content')!)).toMatchObject({ product_code: 'QUICK_WAP_WAY' })
    const qr = await pendingOrder('qr')
    expect(qr.payment.qrCode).toMatch(/^https:\/\/qr\.alipay\.com\//)
  })
})

describe('notifications', () => {
  it('a paid notification credits once and answers the exact body success; TRADE_FINISHED later credits nothing more', async () => {
    const { user, order } = await pendingOrder()
    await world.alipay.pay(order.outTradeNo)
    expect(world.alipay.sent.at(-1)).toMatchObject({ status: 200 })
    expect(await points(user.id)).toBe(500)
    const finished = world.alipay.notificationFor(order.outTradeNo, (p) => void (p.trade_status = 'TRADE_FINISHED'))
    expect(await notify(finished)).toEqual({ status: 200, text: 'success' })
    const replays = await Promise.all(Array.from({ length: 20 }, () => notify(world.alipay.notificationFor(order.outTradeNo))))
    expect(replays.every((r) => r.text === 'success')).toBe(true)
    expect(await points(user.id)).toBe(500)
    expect(await db().chargeRecord.count({ where: { orderId: order.id } })).toBe(1)
  })

  it('a bad signature is never answered success and credits nothing', async () => {
    const { user, order } = await pendingOrder()
    await world.alipay.pay(order.outTradeNo, { notify: false })
    const good = new URLSearchParams(world.alipay.notificationFor(order.outTradeNo))
    good.set('total_amount', '0.01') // changed after signing
    expect(await notify(good.toString())).toEqual({ status: 400, text: 'fail' })
    const unsigned = new URLSearchParams(world.alipay.notificationFor(order.outTradeNo))
    unsigned.delete('sign')
    expect((await notify(unsigned.toString())).text).toBe('fail')
    expect(await points(user.id)).toBe(0)
  })

  it('signed but the total, the app or the seller is wrong: nothing credited, the order flagged', async () => {
    const { user, order } = await pendingOrder()
    await world.alipay.pay(order.outTradeNo, { notify: false })
    for (const change of [
      (p: Record<string, string>) => (p.total_amount = '12.29'),
      (p: Record<string, string>) => (p.app_id = '2021000000000000'),
      (p: Record<string, string>) => (p.seller_id = '2088000000000000'),
    ]) {
      expect((await notify(world.alipay.notificationFor(order.outTradeNo, change))).text).toBe('success')
    }
    expect(await points(user.id)).toBe(0)
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).flag).toMatch(/金额不符|商户号/)
    expect(await db().paymentNotification.count({ where: { orderId: order.id, outcome: 'mismatch' } })).toBe(3)
  })

  it('a forged body with an unknown sign_type or a U+0000 is refused with 400 and kept for the console, not a 500', async () => {
    const { order } = await pendingOrder()
    const strange = new URLSearchParams(world.alipay.notificationFor(order.outTradeNo))
    strange.set('sign_type', 'FOO')
    expect(await notify(strange.toString())).toEqual({ status: 400, text: 'fail' })
    const nul = new URLSearchParams(world.alipay.notificationFor(order.outTradeNo))
    nul.set('out_trade_no', `${order.outTradeNo}\u0000`)
    expect(await notify(nul.toString())).toEqual({ status: 400, text: 'fail' })
    const kept = await db().paymentNotification.findFirstOrThrow({ where: { outTradeNo: `${order.outTradeNo}\\u0000` } })
    expect(kept).toMatchObject({ outcome: 'rejected', orderId: null })
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'PENDING' })
  })

  it('alipay-sdk itself agrees with the fake: it verifies the fake notification and refuses a changed one', () => {
    const sdk = new AlipaySdk({
      appId: world.alipay.keys.appId,
      privateKey: world.alipay.keys.appPrivateKeyPem,
      alipayPublicKey: world.alipay.keys.alipayPublicKeyPem,
    })
    const params = Object.fromEntries(new URLSearchParams(world.alipay.notificationFor('P2026000000000000000001')))
    expect(sdk.checkNotifySignV2(params)).toBe(true)
    expect(sdk.checkNotifySignV2({ ...params, total_amount: '999.00' })).toBe(false)
  })
})

describe('the active query', () => {
  it('settles a paid trade whose notification was lost, and a trade closed at Alipay cancels the order', async () => {
    world.alipay.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      await world.alipay.pay(order.outTradeNo)
      await reconcileOrders(new Date(Date.now() + 61_000))
      expect(await points(user.id)).toBe(500)

      const other = await pendingOrder()
      world.alipay.trades.get(other.order.outTradeNo)!.status = 'TRADE_CLOSED'
      await reconcileOrders(new Date(Date.now() + 61_000))
      expect(await db().order.findUniqueOrThrow({ where: { id: other.order.id }, select: { status: true } })).toEqual({ status: 'CANCELED' })
    } finally {
      world.alipay.settings.loseNotifications = false
    }
  })

  it('a paid trade the buyer cancels while the Alipay query is busy stays pending, and the next try finds it paid', async () => {
    world.alipay.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      await world.alipay.pay(order.outTradeNo)
      const cancel = () => callRoute(cancelOrder.POST, { method: 'POST', token: user.token, params: { id: order.id } })
      world.alipay.settings.queryAnswer = 'busy' // the close is refused (the trade is paid), and the query has no answer
      try {
        expectFail(await cancel(), 400, '暂时无法在支付平台关闭订单，请稍后再试')
      } finally {
        world.alipay.settings.queryAnswer = 'trade'
      }
      expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'PENDING' })
      expect(expectOk(await cancel())).toMatchObject({ status: 'SUCCESS' })
      expect(await points(user.id)).toBe(500)
    } finally {
      world.alipay.settings.loseNotifications = false
    }
  })

  it('a page order cancelled before its cashier opened can still be paid there: with the notification lost, a last look after the expiry credits it', async () => {
    const { user, order, payment } = await pendingOrder('page')
    expect(expectOk(await callRoute(cancelOrder.POST, { method: 'POST', token: user.token, params: { id: order.id } }))).toMatchObject({ status: 'CANCELED' })
    const cancelled = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { expiresAt: true, nextQueryAt: true } })
    expect(cancelled.nextQueryAt).toEqual(new Date(cancelled.expiresAt.getTime() + LAST_LOOK_AFTER_EXPIRY_MS))
    world.alipay.settings.loseNotifications = true
    try {
      expect((await fetch(payment.alipayUrl)).status).toBe(200) // the link still opens the cashier
      await world.alipay.pay(order.outTradeNo)
    } finally {
      world.alipay.settings.loseNotifications = false
    }
    await reconcileOrders(new Date(cancelled.expiresAt.getTime() + LAST_LOOK_AFTER_EXPIRY_MS - 1_000))
    expect(await points(user.id)).toBe(0)
    await reconcileOrders(new Date(cancelled.expiresAt.getTime() + LAST_LOOK_AFTER_EXPIRY_MS))
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true, nextQueryAt: true } })).toEqual({
      status: 'SUCCESS',
      flag: expect.stringContaining('关闭后'),
      nextQueryAt: null,
    })
    expect(await points(user.id)).toBe(500)
  })

  it('an order whose trade was closed, or still unpaid at its last look, is not asked about again', async () => {
    const qr = await pendingOrder('qr') // a precreated trade exists at once, and closes
    expectOk(await callRoute(cancelOrder.POST, { method: 'POST', token: qr.user.token, params: { id: qr.order.id } }))
    expect(await db().order.findUniqueOrThrow({ where: { id: qr.order.id }, select: { nextQueryAt: true } })).toEqual({ nextQueryAt: null })

    const page = await pendingOrder('page')
    expectOk(await callRoute(cancelOrder.POST, { method: 'POST', token: page.user.token, params: { id: page.order.id } }))
    const { expiresAt } = await db().order.findUniqueOrThrow({ where: { id: page.order.id }, select: { expiresAt: true } })
    await reconcileOrders(new Date(expiresAt.getTime() + LAST_LOOK_AFTER_EXPIRY_MS))
    expect(await db().order.findUniqueOrThrow({ where: { id: page.order.id }, select: { status: true, nextQueryAt: true } })).toEqual({
      status: 'CANCELED',
      nextQueryAt: null,
    })
  })

  it('a page-pay trade nobody opened yet is simply still waiting (ACQ.TRADE_NOT_EXIST)', async () => {
    const { order } = await pendingOrder('page')
    world.alipay.trades.delete(order.outTradeNo)
    await reconcileOrders(new Date(Date.now() + 61_000))
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, queryCount: true } })).toEqual({
      status: 'PENDING',
      queryCount: 1,
    })
  })
})

describe("a trade refunded in Alipay's own platform (TRADE_CLOSED after payment)", () => {
  /** Paid with its notification lost; the signed paid notification Alipay will repeat later. */
  async function paidUnseen() {
    const { user, order } = await pendingOrder()
    await world.alipay.pay(order.outTradeNo, { notify: false })
    return { user, order, stalePaid: world.alipay.notificationFor(order.outTradeNo) }
  }
  const orderOf = (id: string) => db().order.findUniqueOrThrow({ where: { id }, select: { status: true, flag: true } })

  async function expectNeverCredited(user: { id: string }, order: { id: string }, stalePaid: string) {
    expect(await notify(stalePaid)).toEqual({ status: 200, text: 'success' })
    expectFail(
      await callRoute(markPaid.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户说付过了' } }),
      400,
      '该订单已在支付宝退款，不能标记为已支付',
    )
    expect(await orderOf(order.id)).toEqual({ status: 'CANCELED', flag: REFUNDED_AT_ALIPAY })
    expect(await points(user.id)).toBe(0)
    expect(await db().chargeRecord.count({ where: { orderId: order.id } })).toBe(0)
  }

  it('its TRADE_CLOSED notification cancels the order as refunded; the repeated paid notification and 标记已支付 credit nothing', async () => {
    const { user, order, stalePaid } = await paidUnseen()
    await world.alipay.refundInPlatform(order.outTradeNo)
    expect(world.alipay.sent.at(-1)).toMatchObject({ status: 200 })
    await expectNeverCredited(user, order, stalePaid)
  })

  it('found by the active query (a closed trade with a payment date), with the same outcome', async () => {
    const { user, order, stalePaid } = await paidUnseen()
    await world.alipay.refundInPlatform(order.outTradeNo, { notify: false })
    await reconcileOrders(new Date(Date.now() + 61_000))
    await expectNeverCredited(user, order, stalePaid)
  })

  it('a trade closed unpaid cancels the order unflagged, and a paid notification after it still credits, flagged for a human', async () => {
    const { user, order } = await pendingOrder()
    world.alipay.trades.get(order.outTradeNo)!.status = 'TRADE_CLOSED'
    await reconcileOrders(new Date(Date.now() + 61_000))
    expect(await orderOf(order.id)).toEqual({ status: 'CANCELED', flag: null })
    world.alipay.trades.get(order.outTradeNo)!.status = 'TRADE_SUCCESS'
    expect((await notify(world.alipay.notificationFor(order.outTradeNo))).text).toBe('success')
    expect(await orderOf(order.id)).toMatchObject({ status: 'SUCCESS', flag: expect.stringContaining('关闭后') })
    expect(await points(user.id)).toBe(500)
  })

  it('paid through the cashier after a cancel, then refunded there: its notification or the last look marks it, and the repeated paid notification credits nothing', async () => {
    for (const refundNotified of [true, false]) {
      const { user, order, payment } = await pendingOrder('page')
      expectOk(await callRoute(cancelOrder.POST, { method: 'POST', token: user.token, params: { id: order.id } }))
      await fetch(payment.alipayUrl)
      await world.alipay.pay(order.outTradeNo, { notify: false })
      const stalePaid = world.alipay.notificationFor(order.outTradeNo)
      await world.alipay.refundInPlatform(order.outTradeNo, { notify: refundNotified })
      // Told by the refund's notification, the repeat is refused at once; otherwise after the last look.
      if (refundNotified) expect(await notify(stalePaid)).toEqual({ status: 200, text: 'success' })
      const { expiresAt } = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { expiresAt: true } })
      await reconcileOrders(new Date(expiresAt.getTime() + LAST_LOOK_AFTER_EXPIRY_MS))
      expect(await notify(stalePaid)).toEqual({ status: 200, text: 'success' })
      expect(await orderOf(order.id), `refund notified: ${refundNotified}`).toEqual({ status: 'CANCELED', flag: REFUNDED_AT_ALIPAY })
      expect(await points(user.id)).toBe(0)
    }
  })

  it('refunded there after it was fulfilled here: the order is flagged so a human can take the grant back', async () => {
    const { user, order } = await pendingOrder()
    await world.alipay.pay(order.outTradeNo)
    expect(await points(user.id)).toBe(500)
    await world.alipay.refundInPlatform(order.outTradeNo)
    expect(await orderOf(order.id)).toEqual({ status: 'SUCCESS', flag: REFUNDED_AT_ALIPAY_AFTER_GRANT })

    // An earlier note is kept beside it.
    const late = await pendingOrder()
    await db().order.update({ where: { id: late.order.id }, data: { flag: '订单关闭后收到付款' } })
    await world.alipay.pay(late.order.outTradeNo)
    await world.alipay.refundInPlatform(late.order.outTradeNo)
    expect(await orderOf(late.order.id)).toEqual({ status: 'SUCCESS', flag: `订单关闭后收到付款；${REFUNDED_AT_ALIPAY_AFTER_GRANT}` })
  })
})

describe('refunds', () => {
  it('a refund whose answer is busy (20000), lost, or accepted but not made waits and is finished by asking again with the same out_request_no', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const refundOf = (id: string) => callRoute(refund.POST, { token: admin.token, params: { id }, body: { reason: '用户申请退款' } })
    // "accepted": code 10000 with fund_change N and no refund behind it, which only the refund query tells apart.
    // "lost": asked again, Alipay answers fund_change N for the refund made the first time; the query confirms it.
    for (const answer of ['busy', 'lost', 'accepted'] as const) {
      const { user, order } = await pendingOrder()
      await world.alipay.pay(order.outTradeNo)
      world.alipay.settings.refundAnswer = answer
      try {
        expect(expectOk(await refundOf(order.id)).refundedAt).toBeNull()
      } finally {
        world.alipay.settings.refundAnswer = 'made'
      }
      expect(await points(user.id)).toBe(0)
      expect(world.alipay.trades.get(order.outTradeNo)!.refunded).toHaveLength(answer === 'lost' ? 1 : 0)
      expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(1)
      expect(world.alipay.trades.get(order.outTradeNo)!.refunded).toHaveLength(1)
      expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).refundedAt).not.toBeNull()
      expect(await points(user.id)).toBe(0)
    }
  })

  it('asked again, a refusal about a trade the first asking refunded is checked with the refund query: done, nothing given back', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const { user, order } = await pendingOrder()
    await world.alipay.pay(order.outTradeNo)
    world.alipay.settings.refundAnswer = 'lost'
    try {
      expect(expectOk(await callRoute(refund.POST, { token: admin.token, params: { id: order.id }, body: { reason: '用户申请退款' } })).refundedAt).toBeNull()
      // The refund was made; asked again, this Alipay refuses the number as a closed trade.
      world.alipay.settings.refundAnswer = 'closed'
      expect(await retryRefunds(new Date(Date.now() + REFUND_RETRY_AFTER_MS + 1_000))).toBe(1)
    } finally {
      world.alipay.settings.refundAnswer = 'made'
    }
    const after = await db().order.findUniqueOrThrow({ where: { id: order.id } })
    expect(after.refundedAt).not.toBeNull()
    expect(after.flag).toBeNull()
    expect(await points(user.id)).toBe(0)
    expect(world.alipay.trades.get(order.outTradeNo)!.refunded).toHaveLength(1)

    // Refused on the first asking, nothing was refunded: the refusal stands and the points come back.
    const second = await pendingOrder()
    await world.alipay.pay(second.order.outTradeNo)
    world.alipay.settings.refundAnswer = 'closed'
    try {
      expectFail(await callRoute(refund.POST, { token: admin.token, params: { id: second.order.id }, body: { reason: '用户申请退款' } }), 503, /支付宝退款失败/)
    } finally {
      world.alipay.settings.refundAnswer = 'made'
    }
    expect((await db().order.findUniqueOrThrow({ where: { id: second.order.id } })).refundedAt).toBeNull()
    expect(await points(second.user.id)).toBeGreaterThan(0)
  })
})

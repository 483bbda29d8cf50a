// WeChat Pay v3 end to end against the fake (docs/PRODUCT.md §14, docs/PROTOCOLS.md §9): ordering,
// notifications (verified, decrypted, checked, credited once), every way a notification is refused,
// and lost ones settled by the active query.
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as markPaid from '@/app/api/admin/orders/[id]/mark-paid/route'
import * as cancelOrder from '@/app/api/orders/[id]/cancel/route'
import * as orderById from '@/app/api/orders/[id]/route'
import * as wechatNotify from '@/app/api/pay/wechat/notify/route'
import { db } from '@/lib/db'
import { RECONCILE_BATCH, RECONCILE_INTERVAL_MS, RECONCILE_ORDERS_JOB, reconcileOrders } from '@/lib/payments/reconcile-orders'
import { REFUNDED_AT_WECHAT, REJECTED_KEPT } from '@/lib/payments/settle-paid'
import { startBackgroundWorker } from '@/lib/worker/background-worker'
import { backgroundJobs } from '@/lib/worker/jobs'
import { beijingTime } from '../fakes/wechat-pay'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configureMerchants, createProductRow, ledgerMatchesColumns, placeOrder, startPaymentWorld, type PaymentWorld } from '../helpers/payments'

let world: PaymentWorld
let admin: Awaited<ReturnType<typeof createUser>>
let pack: { id: number }

beforeAll(async () => {
  world = await startPaymentWorld()
  admin = await createUser({ role: 'ADMIN' })
  await configureMerchants(admin.token, world)
  pack = await createProductRow({ type: 'POINTS', price: 990, points: 1000, name: '1000 积分' })
})

afterAll(async () => {
  expect(await ledgerMatchesColumns()).toBe(true)
  await world.close()
})

/** A user with a NATIVE order for the points pack, not yet paid. */
async function pendingOrder() {
  const user = await createUser()
  const { order, payment } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' })
  return { user, order, payment }
}

/** One reconciler round at `now` over every due order, however many batches that takes. */
async function reconcileAll(now: Date) {
  while ((await reconcileOrders(now)) === RECONCILE_BATCH);
}

const points = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId }, select: { points: true } })).points
const post = (n: { headers: Record<string, string>; body: string }) =>
  wechatNotify.POST(new Request('http://localhost/api/pay/wechat/notify', { method: 'POST', ...n }))

describe('a NATIVE order', () => {
  it('answers the code_url to draw, and the paid notification credits the pack once, with one charge record', async () => {
    const { user, order, payment } = await pendingOrder()
    expect(order).toMatchObject({ type: 'POINTS', amount: 990, channel: 'WECHAT', tradeType: 'NATIVE', status: 'PENDING' })
    expect(order.outTradeNo).toMatch(/^[0-9A-Za-z_\-|*]{6,32}$/)
    expect(payment.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/)
    const sent = world.wechat.calls.find((c) => c.path === '/v3/pay/transactions/native')
    expect(sent?.body).toMatchObject({
      appid: world.wechat.keys.appId,
      amount: { total: 990, currency: 'CNY' },
      notify_url: `${world.siteUrl}/api/pay/wechat/notify`,
    })

    await world.wechat.pay(order.outTradeNo)
    expect(world.wechat.sent.at(-1)?.status).toBe(204)
    expect(await points(user.id)).toBe(1000)
    const paid = await db().order.findUniqueOrThrow({ where: { id: order.id } })
    expect(paid).toMatchObject({ status: 'SUCCESS', providerTxnId: world.wechat.orders.get(order.outTradeNo)?.transactionId })
    expect(await db().chargeRecord.findMany({ where: { orderId: order.id } })).toMatchObject([{ points: 1000, amount: 990, channel: 'WECHAT', type: 'POINTS' }])
  })

  it('one notification replayed 50 times at once credits once; every reply is a success', async () => {
    const { user, order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const n = world.wechat.notificationFor(order.outTradeNo)
    const replies = await Promise.all(Array.from({ length: 50 }, () => post(n)))
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(204))
    expect(await points(user.id)).toBe(1000)
    expect(await db().ledgerEntry.count({ where: { reference: { startsWith: `order:${order.id}:` } } })).toBe(1)
    expect(await db().paymentNotification.groupBy({ by: ['outcome'], where: { orderId: order.id }, _count: true })).toEqual(
      expect.arrayContaining([
        { outcome: 'credited', _count: 1 },
        { outcome: 'duplicate', _count: 49 },
      ]),
    )
  })

  it('a crash between the commit and the reply: WeChat sends again and gets a success, nothing more is credited', async () => {
    const { user, order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const n = world.wechat.notificationFor(order.outTradeNo)
    await post(n) // committed; the reply never reached WeChat
    expect((await post(n)).status).toBe(204)
    expect(await points(user.id)).toBe(1000)
  })
})

describe('notifications that are refused', () => {
  const refusedWith = async (n: { headers: Record<string, string>; body: string }, status: number, message: RegExp) => {
    const res = await post(n)
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual({ code: 'FAIL', message: expect.stringMatching(message) })
  }

  it('a forged signature, a SIGNTEST probe, an unknown serial and a timestamp 301 s old: 401, nothing credited', async () => {
    const { user, order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const good = world.wechat.notificationFor(order.outTradeNo)
    const forged = { ...good, headers: { ...good.headers, 'wechatpay-signature': Buffer.from('x'.repeat(256)).toString('base64') } }
    await refusedWith(forged, 401, /签名错误/)
    await refusedWith({ ...good, headers: { ...good.headers, 'wechatpay-signature': 'WECHATPAY/SIGNTEST/' + 'A'.repeat(300) } }, 401, /签名错误/)
    await refusedWith({ ...good, headers: { ...good.headers, 'wechatpay-serial': 'PUB_KEY_ID_0000000000000000UNKNOWN' } }, 401, /未知的证书序列号/)
    const stale = world.wechat.notificationFor(order.outTradeNo, () => {}, new Date(Date.now() - 301_000))
    await refusedWith(stale, 401, /5 分钟/)
    // A forged body holding U+0000 (which PostgreSQL text cannot store) is refused and kept like any other.
    await refusedWith({ ...forged, body: forged.body.replace('{', '{"nul":"\u0000",') }, 401, /签名错误/)
    expect(await points(user.id)).toBe(0)
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'PENDING' })
    expect(await db().paymentNotification.count({ where: { outcome: 'rejected', detail: { contains: '签名错误' } } })).toBeGreaterThanOrEqual(2)
  })

  it('forged notifications from one address are all refused, but only 60 in ten minutes are kept, each cut to 2,000 characters', async () => {
    const { order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const good = world.wechat.notificationFor(order.outTradeNo)
    const marker = `forged-${Date.now()}`
    const body = JSON.stringify({ padding: `${marker}${'x'.repeat(5_000)}`, ...JSON.parse(good.body) })
    // Addresses of a documentation range that no other test sends from.
    const address = () => `2001:db8::${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}`
    const forged = { body, headers: { ...good.headers, 'x-client-ip': address() } }
    for (let i = 0; i < REJECTED_KEPT.perAddress + 5; i++) await refusedWith(forged, 401, /签名错误/)
    const kept = await db().paymentNotification.findMany({ where: { outcome: 'rejected', raw: { contains: marker } }, select: { raw: true } })
    expect(kept).toHaveLength(REJECTED_KEPT.perAddress)
    expect(kept.every((k) => k.raw.length === REJECTED_KEPT.rawChars)).toBe(true)
    // Another address is kept again.
    await refusedWith({ body, headers: { ...forged.headers, 'x-client-ip': address() } }, 401, /签名错误/)
    expect(await db().paymentNotification.count({ where: { outcome: 'rejected', raw: { contains: marker } } })).toBe(REJECTED_KEPT.perAddress + 1)
  })

  it('a body changed after signing is 401; a resource whose GCM tag is corrupted (signed again) is 400', async () => {
    const { user, order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const good = world.wechat.notificationFor(order.outTradeNo)
    await refusedWith({ ...good, body: good.body.replace('"支付成功"', '"支付成功 "') }, 401, /签名错误/)

    // Re-sign a body whose ciphertext's last byte (the tag) is flipped: only the GCM check can catch it.
    const envelope = JSON.parse(good.body) as { resource: { ciphertext: string } }
    const bytes = Buffer.from(envelope.resource.ciphertext, 'base64')
    bytes[bytes.length - 1]! ^= 0xff
    envelope.resource.ciphertext = bytes.toString('base64')
    const { createSign } = await import('node:crypto')
    const body = JSON.stringify(envelope)
    const ts = good.headers['wechatpay-timestamp']!
    const nonce = good.headers['wechatpay-nonce']!
    const signature = createSign('RSA-SHA256').update(`${ts}\n${nonce}\n${body}\n`).sign(world.wechat.keys.platformPrivateKey, 'base64')
    await refusedWith({ headers: { ...good.headers, 'wechatpay-signature': signature }, body }, 400, /无法解密/)
    expect(await points(user.id)).toBe(0)
  })

  it('verified but the amount, the merchant or the order does not match: 204 so WeChat stops, nothing credited, the order flagged', async () => {
    const { user, order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const amount = world.wechat.notificationFor(order.outTradeNo, (t) => void ((t.amount as { total: number }).total = 1))
    expect((await post(amount)).status).toBe(204)
    const mchid = world.wechat.notificationFor(order.outTradeNo, (t) => void (t.mchid = '1900000999'))
    expect((await post(mchid)).status).toBe(204)
    const unknown = world.wechat.notificationFor(order.outTradeNo, (t) => void (t.out_trade_no = 'P20260101000000NOSUCHONE'))
    expect((await post(unknown)).status).toBe(204)
    expect(await points(user.id)).toBe(0)
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } })
    expect(row.status).toBe('PENDING')
    expect(row.flag).toMatch(/商户号|金额不符/)
    expect(
      await db().paymentNotification.findMany({ where: { outTradeNo: { in: [order.outTradeNo, 'P20260101000000NOSUCHONE'] } }, select: { outcome: true } }),
    ).toEqual(expect.arrayContaining([{ outcome: 'mismatch' }, { outcome: 'mismatch' }, { outcome: 'unknown-order' }]))
  })
})

describe('lost notifications', () => {
  it('the reconciler queries a pending order within its first round and settles it', async () => {
    world.wechat.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      await world.wechat.pay(order.outTradeNo)
      expect(await points(user.id)).toBe(0)
      // Not due yet: the first query comes 60 s after the order.
      await reconcileOrders(new Date())
      expect(await points(user.id)).toBe(0)
      await reconcileOrders(new Date(Date.now() + 61_000))
      expect(await points(user.id)).toBe(1000)
      expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, nextQueryAt: true } })).toEqual({
        status: 'SUCCESS',
        nextQueryAt: null,
      })
    } finally {
      world.wechat.settings.loseNotifications = false
    }
  })

  it('a backlog of due orders is worked off at once by the worker, not one batch per interval', async () => {
    world.wechat.settings.loseNotifications = true
    const worker = startBackgroundWorker(
      backgroundJobs().filter((j) => j.name === RECONCILE_ORDERS_JOB),
      () => {},
    )
    try {
      const user = await createUser()
      const ids: string[] = []
      for (let i = 0; i < 2 * RECONCILE_BATCH + 5; i++) {
        const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' })
        await world.wechat.pay(order.outTradeNo)
        ids.push(order.id)
      }
      // A minute later (many orders whose notifications were lost): all due at once; the worker is woken as by its timer.
      await db().order.updateMany({ where: { id: { in: ids } }, data: { nextQueryAt: new Date(Date.now() - 1000) } })
      worker.wake(RECONCILE_ORDERS_JOB)
      const settled = () => db().order.count({ where: { id: { in: ids }, status: 'SUCCESS' } })
      const deadline = Date.now() + RECONCILE_INTERVAL_MS / 2
      while ((await settled()) < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      expect(await settled()).toBe(ids.length)
      expect(await points(user.id)).toBe(ids.length * 1000)
    } finally {
      await worker.stop()
      world.wechat.settings.loseNotifications = false
    }
  })

  it('a page polling its order learns of the payment by itself', async () => {
    world.wechat.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      expect(expectOk(await callRoute(orderById.GET, { token: user.token, params: { id: order.id } })).status).toBe('PENDING')
      await world.wechat.pay(order.outTradeNo)
      await db().order.update({ where: { id: order.id }, data: { lastQueriedAt: null } })
      expect(expectOk(await callRoute(orderById.GET, { token: user.token, params: { id: order.id } })).status).toBe('SUCCESS')
      expect(await points(user.id)).toBe(1000)
    } finally {
      world.wechat.settings.loseNotifications = false
    }
  })

  it('a page polling many times does not push back the reconciler: paid after the tab was closed, the 3-minute query settles it', async () => {
    world.wechat.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      const { createdAt } = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { createdAt: true } })
      for (let i = 0; i < 15; i++) {
        await db().order.update({ where: { id: order.id }, data: { lastQueriedAt: null } })
        expect(expectOk(await callRoute(orderById.GET, { token: user.token, params: { id: order.id } })).status).toBe('PENDING')
      }
      await reconcileAll(new Date(createdAt.getTime() + 61_000))
      expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { nextQueryAt: true } })).toEqual({
        nextQueryAt: new Date(createdAt.getTime() + 3 * 60_000),
      })
      // The tab is closed; the buyer pays on the phone and the notification is lost.
      await world.wechat.pay(order.outTradeNo)
      await reconcileAll(new Date(createdAt.getTime() + 3 * 60_000))
      expect(await points(user.id)).toBe(1000)
    } finally {
      world.wechat.settings.loseNotifications = false
    }
  })

  it('a trade refunded in the merchant platform is not credited: the page poll, the cancel and the reconciler cancel it and flag it; its paid notification repeated later credits nothing', async () => {
    world.wechat.settings.loseNotifications = true
    try {
      const [byPage, byCancel, byWorker] = [await pendingOrder(), await pendingOrder(), await pendingOrder()]
      const paidNotifications = []
      for (const { order } of [byPage, byCancel, byWorker]) {
        await world.wechat.pay(order.outTradeNo)
        paidNotifications.push(world.wechat.notificationFor(order.outTradeNo))
        world.wechat.refundInPlatform(order.outTradeNo)
      }
      expect(expectOk(await callRoute(orderById.GET, { token: byPage.user.token, params: { id: byPage.order.id } })).status).toBe('CANCELED')
      expect(expectOk(await callRoute(cancelOrder.POST, { token: byCancel.user.token, params: { id: byCancel.order.id } })).status).toBe('CANCELED')
      await reconcileAll(new Date(Date.now() + 61_000))
      for (const { user, order } of [byPage, byCancel, byWorker]) {
        expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true } })).toEqual({
          status: 'CANCELED',
          flag: REFUNDED_AT_WECHAT,
        })
        expect(await points(user.id)).toBe(0)
        expect(await db().chargeRecord.count({ where: { orderId: order.id } })).toBe(0)
      }
      // WeChat goes on repeating the paid notification it could not deliver: answered, nothing credited.
      for (const notification of paidNotifications) expect((await post(notification)).status).toBe(204)
      for (const { user, order } of [byPage, byCancel, byWorker]) {
        expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true } })).toEqual({
          status: 'CANCELED',
          flag: REFUNDED_AT_WECHAT,
        })
        expect(await points(user.id)).toBe(0)
      }
      // Nor does an admin's 标记已支付: the buyer has the money back.
      expectFail(
        await callRoute(markPaid.POST, { token: admin.token, params: { id: byPage.order.id }, body: { reason: '核对到账' } }),
        400,
        '该订单已在微信支付商户平台退款，不能标记为已支付',
      )
      expect(await db().order.findUniqueOrThrow({ where: { id: byPage.order.id }, select: { status: true } })).toEqual({ status: 'CANCELED' })
      expect(await points(byPage.user.id)).toBe(0)
    } finally {
      world.wechat.settings.loseNotifications = false
    }
  })

  it('a paid notification arriving while a query cancels the order as refunded at WeChat waits for it, and credits nothing', async () => {
    world.wechat.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      await world.wechat.pay(order.outTradeNo)
      const paid = world.wechat.notificationFor(order.outTradeNo)
      let notified: Promise<Response> | undefined
      // What the query's cancel does, held open while the notification reads the order.
      await db().$transaction(async (tx) => {
        await tx.order.update({ where: { id: order.id }, data: { status: 'CANCELED', closedAt: new Date(), flag: REFUNDED_AT_WECHAT } })
        notified = post(paid)
        await new Promise((resolve) => setTimeout(resolve, 300))
      })
      expect((await notified!).status).toBe(204)
      expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true } })).toEqual({
        status: 'CANCELED',
        flag: REFUNDED_AT_WECHAT,
      })
      expect(await points(user.id)).toBe(0)
    } finally {
      world.wechat.settings.loseNotifications = false
    }
  })

  it('an expired order flagged for a mismatch is asked about once at its expiry, then left to the console: still pending, flag kept', async () => {
    const { user, order } = await pendingOrder()
    // The buyer paid 1 fen: the notification and every query disagree with the order's amount.
    world.wechat.orders.get(order.outTradeNo)!.total = 1
    await world.wechat.pay(order.outTradeNo)
    const { expiresAt, flag } = await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { expiresAt: true, flag: true } })
    expect(flag).toMatch(/金额不符/)
    const asked = () => world.wechat.calls.filter((c) => c.path.includes(order.outTradeNo)).map((c) => `${c.method} ${c.path.split('/').at(-1)}`)
    const before = asked().length
    for (const minutes of [0, 6, 12, 60]) await reconcileAll(new Date(expiresAt.getTime() + minutes * 60_000))
    expect(asked().slice(before)).toEqual(['POST close', `GET ${order.outTradeNo}`])
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true, nextQueryAt: true } })).toEqual({
      status: 'PENDING',
      flag,
      nextQueryAt: null,
    })
    expect(await points(user.id)).toBe(0)
  })

  it('an expired order is closed at WeChat and cancelled here; paying it afterwards credits once and flags it', async () => {
    const { user, order } = await pendingOrder()
    await reconcileOrders(new Date(Date.now() + 31 * 60_000))
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).toEqual({ status: 'CANCELED' })
    expect(world.wechat.orders.get(order.outTradeNo)?.state).toBe('CLOSED')

    // The buyer had scanned before the close and WeChat took the money anyway: the late notification.
    const fake = world.wechat.orders.get(order.outTradeNo)!
    fake.state = 'NOTPAY'
    await world.wechat.pay(order.outTradeNo)
    await post(world.wechat.notificationFor(order.outTradeNo))
    expect(await points(user.id)).toBe(1000)
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } })
    expect(row).toMatchObject({ status: 'SUCCESS', flag: expect.stringContaining('关闭后') })
    expect(beijingTime()).toMatch(/\+08:00$/)
  })

  it('an expired order whose close says paid while the query gets no answer stays pending, and the next round credits it', async () => {
    world.wechat.settings.loseNotifications = true
    try {
      const { user, order } = await pendingOrder()
      await world.wechat.pay(order.outTradeNo)
      const status = async () => (await db().order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, flag: true } })).status
      world.wechat.failAll({ status: 400, code: 'ORDERPAID', message: '订单已支付' }) // the close's answer, and the query's too
      try {
        await reconcileOrders(new Date(Date.now() + 31 * 60_000))
      } finally {
        world.wechat.failAll(null)
      }
      expect(await status()).toBe('PENDING')
      expect(await points(user.id)).toBe(0)
      await reconcileAll(new Date(Date.now() + 2 * 3_600_000))
      expect(await status()).toBe('SUCCESS')
      expect(await points(user.id)).toBe(1000)
    } finally {
      world.wechat.settings.loseNotifications = false
    }
  })
})

describe('wechatpay-node-v3 agrees with the fake', () => {
  it('the library decrypts the fake notification the way our verifier does, and its JSAPI paySign checks with the merchant key', async () => {
    const { default: WxPay } = await import('wechatpay-node-v3')
    const { createVerify } = await import('node:crypto')
    const keys = world.wechat.keys
    const pay = new WxPay({
      appid: keys.appId,
      mchid: keys.mchId,
      serial_no: keys.mchSerialNo,
      publicKey: Buffer.from('unused'),
      privateKey: Buffer.from(keys.mchPrivateKeyPem),
      key: keys.apiV3Key,
    })
    const { order } = await pendingOrder()
    await world.wechat.pay(order.outTradeNo, { notify: false })
    const n = world.wechat.notificationFor(order.outTradeNo)
    const { resource } = JSON.parse(n.body) as { resource: { ciphertext: string; associated_data: string; nonce: string } }
    expect(pay.decipher_gcm(resource.ciphertext, resource.associated_data, resource.nonce)).toMatchObject({
      out_trade_no: order.outTradeNo,
      trade_state: 'SUCCESS',
    })

    const wxUser = await createUser()
    await db().user.update({ where: { id: wxUser.id }, data: { wxOpenId: 'o-jsapi-buyer' } })
    const { payment } = await placeOrder(wxUser.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'JSAPI' })
    const bridge = payment.jsapi
    expect(bridge).toMatchObject({ appId: keys.appId, signType: 'RSA', package: expect.stringMatching(/^prepay_id=/) })
    const signed = `${bridge.appId}\n${bridge.timeStamp}\n${bridge.nonceStr}\n${bridge.package}\n`
    expect(createVerify('RSA-SHA256').update(signed).verify(keys.mchPublicKey, bridge.paySign, 'base64')).toBe(true)
    expect(world.wechat.calls.find((c) => c.path === '/v3/pay/transactions/jsapi')?.body).toMatchObject({ payer: { openid: 'o-jsapi-buyer' } })
  })

  it('H5 in a phone browser: the h5_url with our redirect back; JSAPI without a WeChat sign-in is refused clearly', async () => {
    const user = await createUser()
    const { order, payment } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'MWEB', returnPath: '/mj' })
    expect(new URL(payment.h5Url).searchParams.get('redirect_url')).toBe(`${world.siteUrl}/mj?order=${order.id}`)
    expect(
      world.wechat.calls.find((c) => c.path === '/v3/pay/transactions/h5' && (c.body as { out_trade_no: string }).out_trade_no === order.outTradeNo)?.body,
    ).toMatchObject({
      scene_info: { payer_client_ip: '10.0.0.1', h5_info: { type: 'Wap' } },
    })
    const res = await callRoute((await import('@/app/api/orders/route')).POST, {
      token: user.token,
      body: { productId: pack.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'JSAPI' },
    })
    expect(res.status).toBe(400)
    expect(res.body.errMessage).toMatch(/请先在微信中登录本站/)
    expect(await db().order.count({ where: { userId: user.id, tradeType: 'JSAPI' } })).toBe(0)
  })
})

// WeChat Pay for merchants without a 微信支付公钥 (docs/PROTOCOLS.md §9): the platform certificate is
// downloaded with the APIv3 key and then checks answers and notifications; an unknown serial does not
// make the site download again on every request.
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as wechatNotify from '@/app/api/pay/wechat/notify/route'
import { db } from '@/lib/db'
import { makePlatformCertificate } from '../fakes/wechat-pay'
import { createUser } from '../helpers/call-route'
import { configureMerchants, createProductRow, placeOrder, startPaymentWorld, type PaymentWorld } from '../helpers/payments'

let world: PaymentWorld

beforeAll(async () => {
  world = await startPaymentWorld({ wechatCertificate: makePlatformCertificate() })
  await configureMerchants((await createUser({ role: 'ADMIN' })).token, world)
})

afterAll(async () => {
  await world.close()
})

const post = (n: { headers: Record<string, string>; body: string }) =>
  wechatNotify.POST(new Request('http://localhost/api/pay/wechat/notify', { method: 'POST', ...n }))

it('orders and notifications verify with the downloaded certificate; forged serials are refused without a download storm', async () => {
  const pack = await createProductRow({ type: 'POINTS', price: 300, points: 300 })
  const user = await createUser()
  const { order, payment } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
  expect(payment.codeUrl).toMatch(/^weixin:/)
  expect(world.wechat.certificateDownloads()).toBe(1)

  await world.wechat.pay(order.outTradeNo)
  expect(world.wechat.sent.at(-1)?.status).toBe(204)
  expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(300)

  const n = world.wechat.notificationFor(order.outTradeNo)
  const forged = await Promise.all(Array.from({ length: 20 }, () => post({ ...n, headers: { ...n.headers, 'wechatpay-serial': '1234567890ABCDEF' } })))
  expect(forged.map((r) => r.status)).toEqual(Array(20).fill(401))
  expect(world.wechat.certificateDownloads()).toBeLessThanOrEqual(2)
})

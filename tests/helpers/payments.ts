// The payment fakes wired to the route handlers: an HTTP server in the test process stands
// in for the site (PUBLIC_URL), so the fakes deliver their notifications over real HTTP.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as alipayNotify from '@/app/api/pay/alipay/notify/route'
import * as wechatNotify from '@/app/api/pay/wechat/notify/route'
import * as orders from '@/app/api/orders/route'
import { db } from '@/lib/db'
import { makeAlipayKeys, startFakeAlipay, type FakeAlipay } from '../fakes/alipay'
import { makeWechatPayKeys, startFakeWechatPay, type FakeWechatPay, type PlatformCertificate } from '../fakes/wechat-pay'
import { callRoute } from './call-route'
import { expectOk } from './expect-response'
import { configure } from './sign-in'

export type PaymentWorld = { wechat: FakeWechatPay; alipay: FakeAlipay; siteUrl: string; certificateMode: boolean; close(): Promise<void> }

const ROUTES: Record<string, (req: Request) => Promise<Response>> = {
  '/api/pay/wechat/notify': wechatNotify.POST,
  '/api/pay/alipay/notify': alipayNotify.POST,
}

/** Starts both fakes and the stand-in site; call before anything reads env(). */
export async function startPaymentWorld(options: { wechatCertificate?: PlatformCertificate } = {}): Promise<PaymentWorld> {
  const site = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const handler = ROUTES[new URL(req.url ?? '/', 'http://x').pathname]
    if (!handler) return void res.writeHead(404).end()
    const request = new Request(`http://localhost${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    })
    const answer = await handler(request)
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  const wechat = await startFakeWechatPay({ keys: makeWechatPayKeys(), certificate: options.wechatCertificate })
  const alipay = await startFakeAlipay({ keys: makeAlipayKeys() })
  process.env.PUBLIC_URL = siteUrl
  process.env.WXPAY_API_BASE = wechat.url
  process.env.ALIPAY_GATEWAY = alipay.gateway
  return {
    wechat,
    alipay,
    siteUrl,
    certificateMode: Boolean(options.wechatCertificate),
    close: async () => {
      await Promise.all([wechat.close(), alipay.close(), new Promise<void>((resolve) => site.close(() => resolve()))])
    },
  }
}

/** The merchant settings the fakes expect, through the admin API, switches on. */
export async function configureMerchants(adminToken: string, world: PaymentWorld): Promise<void> {
  const w = world.wechat.keys
  const a = world.alipay.keys
  await configure(adminToken, {
    WXPAY_APP_ID: w.appId,
    WX_APP_ID: w.appId,
    WXPAY_MCH_ID: w.mchId,
    WXPAY_MCH_SERIAL_NO: w.mchSerialNo,
    WXPAY_MCH_PRIVATE_KEY: w.mchPrivateKeyPem,
    WXPAY_API_V3_KEY: w.apiV3Key,
    // Certificate mode: no 微信支付公钥, so the site downloads platform certificates.
    WXPAY_PUBLIC_KEY_ID: world.certificateMode ? '' : w.publicKeyId,
    WXPAY_PUBLIC_KEY: world.certificateMode ? '' : w.publicKeyPem,
    WXPAY_ENABLED: true,
    ALIPAY_APP_ID: a.appId,
    ALIPAY_PRIVATE_KEY: a.appPrivateKeyPem,
    ALIPAY_PUBLIC_KEY: a.alipayPublicKeyPem,
    ALIPAY_SELLER_ID: a.sellerId,
    ALIPAY_ENABLED: true,
  })
}

export async function createProductRow(data: {
  type: 'BALANCE' | 'POINTS' | 'MEMBERSHIP' | 'CHAT_MEMBERSHIP'
  price: number
  points?: number
  balance?: number
  days?: number
  dailyPoints?: number
  discountPercent?: number
  dailyMessages?: number
  name?: string
}) {
  return db().product.create({ data: { name: data.name ?? `${data.type} ${data.price}`, ...data } })
}

/** POST /api/orders as a user; returns the envelope's data. */
export async function placeOrder(token: string, body: Record<string, unknown>, key?: string) {
  return expectOk(await callRoute(orders.POST, { token, body, headers: key ? { 'idempotency-key': key } : {} }))
}

/** For every user: the ledger sums equal the balance and points columns. */
export async function ledgerMatchesColumns(): Promise<boolean> {
  const rows = await db().$queryRaw<{ n: bigint }[]>`
    SELECT COUNT(*) AS n FROM "User" u WHERE
      u."points" <> COALESCE((SELECT SUM("amount") FROM "LedgerEntry" l WHERE l."userId" = u."id" AND l."account" = 'POINTS'), 0)
      OR u."balance" <> COALESCE((SELECT SUM("amount") FROM "LedgerEntry" l WHERE l."userId" = u."id" AND l."account" = 'BALANCE'), 0)`
  return Number(rows[0]?.n ?? 1) === 0
}

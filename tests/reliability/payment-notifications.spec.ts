// Payment notifications under attack, over HTTP against the production build (docs/PROTOCOLS.md
// §9-§11). The spec plays WeChat Pay and Alipay: it asks the e2e server's fakes for the
// notification they would send (signed and encrypted by the fakes' own code, altered on request)
// and POSTs it to the site's notify URLs itself; the active query is the order status polling
// route (GET /api/orders/{id}) and the worker's reconcile job. Money is read back with SQL.
import http from 'node:http'
import { loadavg } from 'node:os'
import type { APIRequestContext } from '@playwright/test'
import { E2E_BASE_URL } from '../e2e/support/constants'
import { alipayNotification, enablePayments, payAlipayOrder, payWechatOrder, providerState, wechatNotification } from '../e2e/support/payment-fakes'
import { adminToken, registerViaApi } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'
import { drawSequence, play, verdicts, type Played } from './support/payment-sequences'
import {
  api,
  closeSql,
  cpuNow,
  lastNotificationId,
  makeOrder,
  moneyOf,
  outcomesSince,
  prng,
  sendAlipay,
  sendWechat,
  sql,
  type MadeOrder,
} from './support/payments'

const PACK_POINTS = 1000
const PACK_PRICE = 990
let productId = 0
let admin = ''

test.beforeAll(async ({ request }) => {
  await enablePayments(request)
  admin = await adminToken(request)
  const made = await api(admin, 'POST', '/api/admin/products', {
    type: 'POINTS',
    name: `通知测试积分包${Date.now()}`,
    description: 'reliability',
    price: PACK_PRICE,
    points: PACK_POINTS,
    enabled: true,
    sort: 0,
  })
  expect(made.status, made.message).toBe(200)
  productId = made.data!.id as number
})

test.afterAll(async () => closeSql())

async function buyer(request: APIRequestContext): Promise<{ token: string; username: string }> {
  const user = await registerViaApi(request)
  return { token: user.token, username: user.username }
}

async function pointsOf(username: string): Promise<number> {
  const { rows } = await sql().query<{ points: number }>(`SELECT points FROM "User" WHERE username = $1`, [username])
  return rows[0]!.points
}

const count = <T>(items: T[], pick: (item: T) => string) =>
  items.reduce<Record<string, number>>((acc, item) => ((acc[pick(item)] = (acc[pick(item)] ?? 0) + 1), acc), {})

test('one notification replayed 50 times at once credits once (WeChat and Alipay)', async ({ request }) => {
  const user = await buyer(request)
  const wx = await makeOrder(user.token, productId, 'WECHAT')
  await payWechatOrder(wx.outTradeNo, { notify: false })
  const n = await wechatNotification(wx.outTradeNo)
  const wxReplies = await Promise.all(Array.from({ length: 50 }, () => sendWechat(n)))
  expect(count(wxReplies, (r) => `${r.status} ${r.text}`)).toEqual({ '204 ': 50 })

  const ali = await makeOrder(user.token, productId, 'ALIPAY')
  await payAlipayOrder(ali.outTradeNo, { notify: false })
  const body = await alipayNotification(ali.outTradeNo)
  const aliReplies = await Promise.all(Array.from({ length: 50 }, () => sendAlipay(body)))
  expect(count(aliReplies, (r) => `${r.status} ${r.text}`)).toEqual({ '200 success': 50 })

  for (const order of [wx, ali]) {
    const money = await moneyOf(order.id)
    expect(money).toMatchObject({ status: 'SUCCESS', credits: 1, creditedPoints: PACK_POINTS, chargeRecords: 1, outcomes: { credited: 1, duplicate: 49 } })
  }
  expect(await pointsOf(user.username)).toBe(2 * PACK_POINTS)
  figure('replays at once, WeChat / Alipay: sent / answered success / credited', `50 / ${wxReplies.length} / 1; 50 / ${aliReplies.length} / 1`)
})

test('refused WeChat notifications: forged or missing signature, changed body, broken GCM tag, stale or future timestamp', async ({ request }) => {
  const user = await buyer(request)
  const order = await makeOrder(user.token, productId, 'WECHAT')
  await payWechatOrder(order.outTradeNo, { notify: false })
  const good = await wechatNotification(order.outTradeNo)
  const other = await wechatNotification(order.outTradeNo)
  const before = await lastNotificationId()

  const attacks: [string, () => Promise<{ headers: Record<string, string>; body: string }>, number, RegExp][] = [
    // A real signature of the platform key, over another notification's message.
    [
      'signature of another message',
      async () => ({ ...good, headers: { ...good.headers, 'wechatpay-signature': other.headers['wechatpay-signature']! } }),
      401,
      /签名错误/,
    ],
    [
      'random signature',
      async () => ({ ...good, headers: { ...good.headers, 'wechatpay-signature': Buffer.alloc(256, 7).toString('base64') } }),
      401,
      /签名错误/,
    ],
    [
      'SIGNTEST probe',
      async () => ({ ...good, headers: { ...good.headers, 'wechatpay-signature': 'WECHATPAY/SIGNTEST/' + 'A'.repeat(300) } }),
      401,
      /签名错误/,
    ],
    ['no signature headers', async () => ({ headers: { 'content-type': 'application/json' }, body: good.body }), 401, /缺少签名头/],
    [
      'unknown serial',
      async () => ({ ...good, headers: { ...good.headers, 'wechatpay-serial': 'PUB_KEY_ID_0000000000000000UNKNOWN' } }),
      401,
      /未知的证书序列号/,
    ],
    ['body changed after signing', async () => ({ ...good, body: good.body.replace('"支付成功"', '"支付成功 "') }), 401, /签名错误/],
    ['ciphertext swapped from another notification', async () => ({ ...good, body: swapResource(good.body, other.body) }), 401, /签名错误/],
    ['GCM tag broken, body signed', () => wechatNotification(order.outTradeNo, { break_tag: true }), 400, /无法解密/],
    ['timestamp 301 s old', () => wechatNotification(order.outTradeNo, { age_seconds: 301 }), 401, /5 分钟/],
    ['timestamp 301 s ahead', () => wechatNotification(order.outTradeNo, { age_seconds: -301 }), 401, /5 分钟/],
  ]
  const wrong: string[] = []
  for (const [name, make, status, message] of attacks) {
    const reply = await sendWechat(await make())
    const body = JSON.parse(reply.text || '{}') as { code?: string; message?: string }
    if (reply.status !== status || body.code !== 'FAIL' || !message.test(body.message ?? '')) wrong.push(`${name}: ${reply.status} ${reply.text}`)
  }
  expect(wrong).toEqual([])
  expect(await moneyOf(order.id)).toMatchObject({ status: 'PENDING', flag: null, credits: 0, chargeRecords: 0 })
  expect(await outcomesSince(before)).toEqual({ rejected: attacks.length })
  expect(await pointsOf(user.username)).toBe(0)

  // The genuine one still goes through afterwards, once.
  expect((await sendWechat(good)).status).toBe(204)
  expect(await moneyOf(order.id)).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1 })
  figure('WeChat refused notifications: attacks / answered as §9 requires / credited', `${attacks.length} / ${attacks.length - wrong.length} / 0`)
})

test('refused Alipay notifications: changed after signing, forged signature → 400 fail, nothing credited', async ({ request }) => {
  const user = await buyer(request)
  const order = await makeOrder(user.token, productId, 'ALIPAY')
  await payAlipayOrder(order.outTradeNo, { notify: false })
  const good = await alipayNotification(order.outTradeNo)
  const other = new URLSearchParams(await alipayNotification(order.outTradeNo, { total_amount: '0.01' }))
  const edit = (change: (p: URLSearchParams) => void) => {
    const p = new URLSearchParams(good)
    change(p)
    return p.toString()
  }
  const attacks: [string, string][] = [
    ['total_amount raised after signing', edit((p) => p.set('total_amount', '99999.00'))],
    ['trade_status changed after signing', edit((p) => p.set('trade_status', 'TRADE_FINISHED'))],
    ['signature of another notification', edit((p) => p.set('sign', other.get('sign')!))],
    ['random signature', edit((p) => p.set('sign', Buffer.alloc(256, 7).toString('base64')))],
    ['no signature', edit((p) => p.delete('sign'))],
  ]
  const replies = await Promise.all(attacks.map(async ([name, body]) => ({ name, ...(await sendAlipay(body)) })))
  expect(replies.filter((r) => r.status !== 400 || r.text !== 'fail')).toEqual([])
  expect(await moneyOf(order.id)).toMatchObject({ status: 'PENDING', flag: null, credits: 0 })
  expect((await sendAlipay(good)).text).toBe('success')
  expect(await moneyOf(order.id)).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1 })
  figure('Alipay refused notifications: attacks / answered 400 fail / credited', `${attacks.length} / ${replies.filter((r) => r.text === 'fail').length} / 0`)
})

test('verified but wrong amount, merchant, app or unknown order: answered so the provider stops, nothing credited, the order flagged', async ({ request }) => {
  const user = await buyer(request)
  const wx = await makeOrder(user.token, productId, 'WECHAT')
  await payWechatOrder(wx.outTradeNo, { notify: false })
  const ali = await makeOrder(user.token, productId, 'ALIPAY')
  await payAlipayOrder(ali.outTradeNo, { notify: false })
  const before = await lastNotificationId()
  const unknownNo = `P20260101000000${String(Date.now()).slice(-10)}`

  const cases: [string, MadeOrder | null, () => Promise<{ status: number; text: string }>, RegExp | null][] = [
    ['WeChat amount 1 fen', wx, async () => sendWechat(await wechatNotification(wx.outTradeNo, { total: 1 })), /金额不符：支付平台 1 分，订单 990 分/],
    ['WeChat amount +1 fen', wx, async () => sendWechat(await wechatNotification(wx.outTradeNo, { total: PACK_PRICE + 1 })), /金额不符/],
    ['WeChat other mchid', wx, async () => sendWechat(await wechatNotification(wx.outTradeNo, { mchid: '1900000999' })), /商户号或应用 ID/],
    ['WeChat other appid', wx, async () => sendWechat(await wechatNotification(wx.outTradeNo, { appid: 'wx0000000000000000' })), /商户号或应用 ID/],
    ['WeChat unknown order', null, async () => sendWechat(await wechatNotification(wx.outTradeNo, { claimed_out_trade_no: unknownNo })), null],
    ['Alipay amount 0.01', ali, async () => sendAlipay(await alipayNotification(ali.outTradeNo, { total_amount: '0.01' })), /金额不符：支付平台 1 分/],
    ['Alipay other app_id', ali, async () => sendAlipay(await alipayNotification(ali.outTradeNo, { app_id: '2021000000000000' })), /商户号或应用 ID/],
    ['Alipay other seller_id', ali, async () => sendAlipay(await alipayNotification(ali.outTradeNo, { seller_id: '2088000000000000' })), /商户号或应用 ID/],
    ['Alipay unknown trade', null, async () => sendAlipay(await alipayNotification(unknownNo)), null],
  ]
  const wrong: string[] = []
  for (const [name, order, send, flag] of cases) {
    const reply = await send()
    const expected = name.startsWith('WeChat') ? reply.status === 204 && reply.text === '' : reply.status === 200 && reply.text === 'success'
    if (!expected) wrong.push(`${name}: answered ${reply.status} ${reply.text}`)
    if (order) {
      const money = await moneyOf(order.id)
      if (money.status !== 'PENDING' || money.credits !== 0 || !flag?.test(money.flag ?? '')) wrong.push(`${name}: ${JSON.stringify(money)}`)
    }
  }
  expect(wrong).toEqual([])
  expect(await outcomesSince(before)).toEqual({ mismatch: 7, 'unknown-order': 2 })
  expect(await pointsOf(user.username)).toBe(0)
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM "Order" WHERE "outTradeNo" = $1`, [unknownNo])
  expect(rows[0].n).toBe(0)
  figure('verified mismatches: sent / answered success / flagged / credited', `${cases.length} / ${cases.length - wrong.length} / 7 / 0`)
})

test('lost notification: settled by the active query within two rounds (page polling, then the worker’s reconciler)', async ({ request }) => {
  test.setTimeout(180_000)
  const user = await buyer(request)
  // The reconciler's order first, so its minute runs while the polling cases play.
  const byWorker = await makeOrder(user.token, productId, 'WECHAT')
  const workerStart = Date.now()
  await payWechatOrder(byWorker.outTradeNo, { notify: false })

  const polled: string[] = []
  for (const channel of ['WECHAT', 'ALIPAY'] as const) {
    const order = await makeOrder(user.token, productId, channel)
    // Round 1: the page polls before the buyer pays; the provider says not paid.
    expect((await api(user.token, 'GET', `/api/orders/${order.id}`)).data?.status).toBe('PENDING')
    if (channel === 'WECHAT') await payWechatOrder(order.outTradeNo, { notify: false })
    else await payAlipayOrder(order.outTradeNo, { notify: false })
    const start = Date.now()
    let polls = 0
    let status = 'PENDING'
    while (status === 'PENDING' && Date.now() - start < 20_000) {
      await new Promise((r) => setTimeout(r, 1000))
      polls++
      status = String((await api(user.token, 'GET', `/api/orders/${order.id}`)).data?.status)
    }
    const { rows } = await sql().query<{ queryCount: number }>(`SELECT "queryCount" FROM "Order" WHERE id = $1`, [order.id])
    expect(status).toBe('SUCCESS')
    expect(rows[0]!.queryCount).toBeLessThanOrEqual(2)
    expect(await moneyOf(order.id)).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1 })
    polled.push(`${channel} ${rows[0]!.queryCount} queries, ${((Date.now() - start) / 1000).toFixed(1)} s after paying (${polls} polls)`)
  }
  figure('lost notification, page polling', polled.join('; '))

  // Nobody polls this one: the worker's reconcile job asks WeChat (first query due 60 s after the order, every 20 s a round).
  let money = await moneyOf(byWorker.id)
  while (money.status === 'PENDING' && Date.now() - workerStart < 130_000) {
    await new Promise((r) => setTimeout(r, 2000))
    money = await moneyOf(byWorker.id)
  }
  const { rows } = await sql().query<{ queryCount: number }>(`SELECT "queryCount" FROM "Order" WHERE id = $1`, [byWorker.id])
  expect(money).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1, outcomes: {} })
  expect(rows[0]!.queryCount).toBeLessThanOrEqual(2)
  figure('lost notification, reconciler: settled after / queries', `${((Date.now() - workerStart) / 1000).toFixed(0)} s / ${rows[0]!.queryCount}`)
  expect(await pointsOf(user.username)).toBe(3 * PACK_POINTS)
})

test('notification + active query + admin mark-paid racing, 20 runs: exactly one credit each', async ({ request }) => {
  test.setTimeout(120_000)
  const user = await buyer(request)
  const winners: string[] = []
  const problems: string[] = []
  for (let run = 0; run < 20; run++) {
    const channel = run % 2 === 0 ? 'WECHAT' : 'ALIPAY'
    const order = await makeOrder(user.token, productId, channel)
    if (channel === 'WECHAT') await payWechatOrder(order.outTradeNo, { notify: false })
    else await payAlipayOrder(order.outTradeNo, { notify: false })
    const notification = channel === 'WECHAT' ? await wechatNotification(order.outTradeNo) : await alipayNotification(order.outTradeNo)
    // Each path in turn gets a head start of 40 ms (the query path is the slowest: it asks the provider first).
    const after = <T>(path: number, call: () => Promise<T>) => new Promise((r) => setTimeout(r, path === run % 3 ? 0 : 40)).then(call)
    const [notified, queried, marked] = await Promise.all([
      after(0, () => (typeof notification === 'string' ? sendAlipay(notification) : sendWechat(notification))),
      after(1, () => api(user.token, 'GET', `/api/orders/${order.id}`)),
      after(2, () => api(admin, 'POST', `/api/admin/orders/${order.id}/mark-paid`, { reason: '竞态测试' })),
    ])
    const money = await moneyOf(order.id)
    if (![204, 200].includes(notified.status) || queried.status !== 200 || ![200, 400].includes(marked.status)) {
      problems.push(`run ${run}: notify ${notified.status}, query ${queried.status}, mark-paid ${marked.status} ${marked.message}`)
    }
    if (money.status !== 'SUCCESS' || money.credits !== 1 || money.chargeRecords !== 1) problems.push(`run ${run}: ${JSON.stringify(money)}`)
    winners.push(money.outcomes.credited ? 'notification' : marked.status === 200 ? 'admin' : 'query')
  }
  expect(problems).toEqual([])
  expect(await pointsOf(user.username)).toBe(20 * PACK_POINTS)
  figure('3-way races: runs / orders credited exactly once', `20 / 20`)
  figure('3-way races won by', JSON.stringify(count(winners, (w) => w)))
})

test('crash before commit (the site’s database connection killed mid-transaction) and after commit (the reply lost): one credit', async ({ request }) => {
  const user = await buyer(request)

  // After commit: WeChat's connection drops once the request is sent, so it never sees the reply; it sends again.
  const lost = await makeOrder(user.token, productId, 'WECHAT')
  await payWechatOrder(lost.outTradeNo, { notify: false })
  const n = await wechatNotification(lost.outTradeNo)
  await postAndHangUp('/api/pay/wechat/notify', n.headers, n.body)
  await expect.poll(async () => (await moneyOf(lost.id)).status, { timeout: 10_000 }).toBe('SUCCESS')
  const retry = await sendWechat(n)
  expect(retry.status).toBe(204)
  expect(await moneyOf(lost.id)).toMatchObject({ credits: 1, chargeRecords: 1, outcomes: { credited: 1, duplicate: 1 } })

  // The same for Alipay's form notification.
  const lostAli = await makeOrder(user.token, productId, 'ALIPAY')
  await payAlipayOrder(lostAli.outTradeNo, { notify: false })
  const form = await alipayNotification(lostAli.outTradeNo)
  await postAndHangUp('/api/pay/alipay/notify', { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, form)
  await expect.poll(async () => (await moneyOf(lostAli.id)).status, { timeout: 10_000 }).toBe('SUCCESS')
  expect(await sendAlipay(form)).toEqual({ status: 200, text: 'success' })
  expect(await moneyOf(lostAli.id)).toMatchObject({ credits: 1, chargeRecords: 1, outcomes: { credited: 1, duplicate: 1 } })

  // Before commit: the order row is held locked, so the notification's transaction stops at its
  // conditional update; its database connection is then terminated (as a crashed connection would
  // be), so the transaction never commits. The site must answer 500 (WeChat retries) and credit nothing.
  const broken = await makeOrder(user.token, productId, 'WECHAT')
  await payWechatOrder(broken.outTradeNo, { notify: false })
  const n2 = await wechatNotification(broken.outTradeNo)
  const holder = await sql().connect()
  let reply: { status: number; text: string }
  let killed = 0
  try {
    await holder.query('BEGIN')
    await holder.query(`SELECT id FROM "Order" WHERE id = $1 FOR UPDATE`, [broken.id])
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
    const inFlight = sendWechat(n2)
    let waiter: number | undefined
    for (let i = 0; i < 100 && waiter === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100))
      const { rows } = await sql().query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [holderPid])
      waiter = rows[0]?.pid
    }
    expect(waiter, 'the notification’s transaction waits on the locked order row').toBeDefined()
    killed = (await sql().query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [waiter])).rows.filter((r) => r.ok).length
    reply = await inFlight
  } finally {
    await holder.query('ROLLBACK')
    holder.release()
  }
  expect(killed).toBe(1)
  expect(reply.status).toBe(500)
  expect(JSON.parse(reply.text)).toEqual({ code: 'FAIL', message: expect.any(String) })
  expect(await moneyOf(broken.id)).toMatchObject({ status: 'PENDING', credits: 0, chargeRecords: 0, outcomes: {} })
  // WeChat retries: credited once, and the site's pool works again.
  expect((await sendWechat(n2)).status).toBe(204)
  expect((await sendWechat(n2)).status).toBe(204)
  expect(await moneyOf(broken.id)).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1, outcomes: { credited: 1, duplicate: 1 } })
  expect(await pointsOf(user.username)).toBe(3 * PACK_POINTS)
  figure('crash after commit (reply lost), WeChat / Alipay: retry answered / credits', `204 / 1; 200 success / 1`)
  figure('crash before commit (connection killed): answer / credits, after the retry', `${reply.status} / 0, 1`)
})

test('late payment after close: credited once and flagged (Alipay page trade opened after the cancel, WeChat paid as it closed, admin)', async ({
  request,
}) => {
  const user = await buyer(request)

  // Alipay page pay: the trade exists at Alipay only once the cashier opens, so cancelling first
  // finds nothing to close; the buyer opens the link later and pays.
  const ali = await makeOrder(user.token, productId, 'ALIPAY', 'page')
  expect((await api(user.token, 'POST', `/api/orders/${ali.id}/cancel`)).data?.status).toBe('CANCELED')
  expect(await providerState('ALIPAY', ali.outTradeNo)).toBeNull()
  const cashier = await fetch(ali.payment.alipayUrl!)
  expect(await cashier.text()).toContain('支付宝收银台')
  await payAlipayOrder(ali.outTradeNo) // the fake notifies the site
  const aliMoney = await moneyOf(ali.id)
  expect(aliMoney).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1, outcomes: { late: 1 } })
  expect(aliMoney.flag).toBe('订单关闭后收到付款，已照常到账')

  // WeChat: closed by the cancel, but WeChat took the money anyway (the buyer had scanned before).
  const wx = await makeOrder(user.token, productId, 'WECHAT')
  expect((await api(user.token, 'POST', `/api/orders/${wx.id}/cancel`)).data?.status).toBe('CANCELED')
  expect(await providerState('WECHAT', wx.outTradeNo)).toBe('CLOSED')
  await payWechatOrder(wx.outTradeNo, { reopen: true })
  const n = await wechatNotification(wx.outTradeNo)
  expect((await sendWechat(n)).status).toBe(204)
  const wxMoney = await moneyOf(wx.id)
  expect(wxMoney).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1, flag: '订单关闭后收到付款，已照常到账' })
  expect(wxMoney.outcomes.late).toBe(1)

  // An admin confirms money for a cancelled order: credited once, flagged as the admin's.
  const manual = await makeOrder(user.token, productId, 'WECHAT')
  await api(user.token, 'POST', `/api/orders/${manual.id}/cancel`)
  const marks = await Promise.all(Array.from({ length: 5 }, () => api(admin, 'POST', `/api/admin/orders/${manual.id}/mark-paid`, { reason: '线下转账' })))
  expect(count(marks, (m) => String(m.status))).toEqual({ '200': 1, '400': 4 })
  expect(await moneyOf(manual.id)).toMatchObject({ status: 'SUCCESS', credits: 1, chargeRecords: 1, flag: '管理员在订单关闭后确认到账' })
  expect(await pointsOf(user.username)).toBe(3 * PACK_POINTS)
  figure('late payments after close: Alipay page / WeChat / admin mark-paid ×5', 'credited 1 / 1 / 1, all flagged')
})

test('random sequences of notify / query / cancel / admin mark-paid / replay: never credited twice, never leaving SUCCESS', async ({ request }) => {
  const total = Number(process.env.PAYMENT_SEQUENCES ?? 10_000)
  const seed = Number(process.env.PAYMENT_SEED ?? Date.now() % 2 ** 31)
  const concurrency = Number(process.env.PAYMENT_CONCURRENCY ?? 24)
  test.setTimeout(45 * 60_000)
  figure('random sequences: seed (PAYMENT_SEED) / sequences / at once', `${seed} / ${total} / ${concurrency}`)
  // One after another: logins in flight count against the address's limit until they succeed.
  const users: Awaited<ReturnType<typeof buyer>>[] = []
  for (let i = 0; i < 12; i++) users.push(await buyer(request))
  const pointsBefore = await Promise.all(users.map((u) => pointsOf(u.username)))
  const rnd = prng(seed)
  const sequences = Array.from({ length: total }, (_, i) => drawSequence(rnd, i, users.length))

  const played: Played[] = []
  const failed: string[] = []
  let next = 0
  const start = Date.now()
  const cpuStart = await cpuNow()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < sequences.length) {
        const sequence = sequences[next++]!
        try {
          played.push(await play(sequence, users[sequence.user]!.token, admin, productId))
        } catch (error) {
          failed.push(`#${sequence.index}: ${(error as Error).message}`)
        }
      }
    }),
  )
  const seconds = (Date.now() - start) / 1000
  const cpu = (await cpuNow()) - cpuStart

  const found = await verdicts(played.map((p) => p.order.id))
  const problems = [...failed]
  const successes = new Array<number>(users.length).fill(0)
  const ends: Record<string, number> = {}
  for (const p of played) {
    const v = found.get(p.order.id)!
    const where = `#${p.sequence.index} ${p.sequence.kind} ${JSON.stringify(p.sequence.steps)}`
    for (const problem of p.problems) problems.push(`${where}: ${problem}`)
    const success = v.status === 'SUCCESS'
    if (v.credits !== (success ? 1 : 0) || v.charges !== (success ? 1 : 0) || v.points !== (success ? PACK_POINTS : 0))
      problems.push(`${where}: ${v.status} with ${v.credits} credits (${v.points} points), ${v.charges} charge records`)
    if (p.mustSucceed !== success) problems.push(`${where}: ended ${v.status}, expected ${p.mustSucceed ? 'SUCCESS' : 'not SUCCESS'}`)
    if (success && v.closed && !v.flag) problems.push(`${where}: paid after its close without a flag`)
    if (success) successes[p.sequence.user]!++
    const key = `${p.sequence.kind} ${v.status}${success && v.closed ? ' (late, flagged)' : ''}`
    ends[key] = (ends[key] ?? 0) + 1
  }
  const pointsAfter = await Promise.all(users.map((u) => pointsOf(u.username)))
  users.forEach((u, i) => {
    if (pointsAfter[i]! - pointsBefore[i]! !== successes[i]! * PACK_POINTS)
      problems.push(`${u.username}: +${pointsAfter[i]! - pointsBefore[i]!} points for ${successes[i]} paid orders`)
  })
  const requests = played.reduce((sum, p) => sum + p.requests, 0)
  const ops = sequences.flatMap((s) => s.steps.flat())
  figure('random sequences: played / problems', `${played.length} / ${problems.length}`)
  figure('random sequences: orders ended', JSON.stringify(ends))
  figure('random sequences: steps drawn', JSON.stringify(count(ops, (o) => o)))
  figure('random sequences: requests to the site / time / sequences per s', `${requests} / ${seconds.toFixed(0)} s / ${(played.length / seconds).toFixed(1)}`)
  // What the same run needs of two idle cores: the CPU it used (site, worker, fakes, database, this process) over 2.
  figure(
    'random sequences: CPU used / per sequence / sequences per s that 2 idle cores allow',
    `${cpu.toFixed(0)} s / ${((cpu / played.length) * 1000).toFixed(0)} ms / ${(played.length / (cpu / 2)).toFixed(1)}`,
  )
  figure('random sequences: machine load average (1 min) at the end', loadavg()[0]!.toFixed(1))
  expect(problems.slice(0, 20)).toEqual([])
  expect(played.length).toBe(total)
})

/** Sends a request and drops the connection as soon as it is written: the caller never sees the reply. */
function postAndHangUp(path: string, headers: Record<string, string>, body: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${E2E_BASE_URL}${path}`, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } })
    req.on('error', () => resolve())
    req.end(body, () => {
      req.destroy()
      resolve()
    })
  })
}

/** The first notification with the second one's encrypted resource (same signature headers). */
function swapResource(first: string, second: string): string {
  const a = JSON.parse(first) as { resource: unknown }
  a.resource = (JSON.parse(second) as { resource: unknown }).resource
  return JSON.stringify(a)
}

// Money under concurrent requests over HTTP (docs/PRODUCT.md §10, §11, §7.2, §14, §17): card
// keys raced by many users, points spent by many submits at once, one Idempotency-Key sent
// twenty times together, and a hundred invitees' orders paid at the same moment. Each race
// ends with exact counts; the suite's fixture then checks every user's ledger against the
// columns.
import type { APIRequestContext, APIResponse, PlaywrightWorkerArgs } from '@playwright/test'
import { E2E_BASE_URL } from '../e2e/support/constants'
import { enablePayments, payWechatOrder } from '../e2e/support/payment-fakes'
import { asAdmin, uniqueName } from '../e2e/support/session'
import { answerOf, crowd, shuffled, sql, tally, type Answer, type CrowdUser } from './support/crowd'
import { expect, figure, test } from './support/fixtures'

// A long wave must not be cut short by the client: the claim is about outcomes, not speed.
const SLOW = { timeout: 180_000 }
const USED_BY_ANOTHER = '该卡密已被使用'
const MAKING = '这笔订单正在创建中，请稍候再试'

type Playwright = PlaywrightWorkerArgs['playwright']
type Send = (api: APIRequestContext) => Promise<APIResponse>

// Reads are retried on a reset connection: a kept-alive socket the server closes (after 5 s
// idle) just as a read reuses it is a property of HTTP keep-alive, not of the site.
async function json(request: APIRequestContext, url: string, auth: { authorization: string }) {
  const res = await request.get(url, { headers: auth, maxRetries: 2 })
  expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy()
  return (await res.json()).data
}

async function adjust(request: APIRequestContext, userId: string, change: { points?: number; balance?: number }) {
  const res = await request.post(`/api/admin/user/${userId}/adjust`, {
    headers: { ...(await asAdmin(request)), 'Idempotency-Key': crypto.randomUUID() },
    data: { ...change, reason: 'money races' },
  })
  expect(res.ok(), await res.text()).toBeTruthy()
}

/** Imports keys worth `points` each and waits for the worker to make them ready. */
async function importCards(request: APIRequestContext, keys: string[], points: number): Promise<number> {
  const res = await request.post('/api/admin/cards/batch_import', { headers: await asAdmin(request), data: { cards: keys, points } })
  expect(res.ok(), await res.text()).toBeTruthy()
  const { batchId } = (await res.json()).data as { batchId: number }
  await expect
    .poll(async () => (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "Card" WHERE "batchId" = $1 AND "status" = 'SUCCESS'`, [batchId]))[0]!.n, {
      timeout: 30_000,
    })
    .toBe(keys.length)
  return batchId
}

const cardKeys = (n: number) => {
  const prefix = `RACE${Date.now().toString(36).toUpperCase()}`
  return Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}K`)
}

/** Every card of the batch with who used it, and the ledger rows that credited it. */
async function redemptions(batchId: number) {
  const cards = await sql<{ id: number; usedById: string | null }>(`SELECT "id", "usedById" FROM "Card" WHERE "batchId" = $1`, [batchId])
  const credits = await sql<{ reference: string; userId: string; amount: number }>(
    `SELECT "reference", "userId", "amount" FROM "LedgerEntry" WHERE "reference" = ANY($1::text[])`,
    [cards.map((c) => `card:${c.id}:redeem`)],
  )
  return { cards, credits }
}

let bystander: Promise<CrowdUser> | undefined

/**
 * Runs `work`, timing it; half a second in, a user with no part in it reads their profile:
 * how long that read takes says whether the rest of the site is still served meanwhile.
 */
async function watched<T>(playwright: Playwright, work: () => Promise<T>): Promise<{ result: T; ms: number; bystanderMs: number }> {
  const reader = await (bystander ??= crowd(1, 'bystander').then(([user]) => user!))
  const api = await playwright.request.newContext({ baseURL: E2E_BASE_URL })
  try {
    const started = Date.now()
    const probe = new Promise((resolve) => setTimeout(resolve, 500)).then(async () => {
      const asked = Date.now()
      expect((await api.get('/api/users/profile', { headers: reader.auth })).status()).toBe(200)
      return Date.now() - asked
    })
    const result = await work()
    const ms = Date.now() - started
    return { result, ms, bystanderMs: await probe }
  } finally {
    await api.dispose()
  }
}

/** Sends every request at once, on new connections (a request context of the race's own), and reads every answer. */
async function race(playwright: Playwright, sends: Send[]): Promise<{ answers: Answer[]; ms: number; bystanderMs: number }> {
  const api = await playwright.request.newContext({ baseURL: E2E_BASE_URL })
  try {
    const { result, ms, bystanderMs } = await watched(playwright, () => Promise.all(sends.map((send) => send(api).then(answerOf))))
    return { answers: result, ms, bystanderMs }
  } finally {
    await api.dispose()
  }
}

const timing = ({ ms, bystanderMs }: { ms: number; bystanderMs: number }) => `${ms} ms / ${bystanderMs} ms`

const redeem =
  (user: CrowdUser, cardKey: string): Send =>
  (api) =>
    api.post('/api/my-cards/redeem', { headers: user.auth, data: { cardKey }, ...SLOW })

test('100 card keys × 10 users, 1,000 redemptions at once: 100 credits, each key once', async ({ playwright, request }) => {
  test.setTimeout(300_000)
  const VALUE = 37
  const keys = cardKeys(100)
  const batchId = await importCards(request, keys, VALUE)
  const users = await crowd(10, 'keys')

  const attempts = shuffled(keys.flatMap((key) => users.map((user) => ({ key, user }))))
  const { answers, ms, bystanderMs } = await race(
    playwright,
    attempts.map(({ key, user }) => redeem(user, key)),
  )
  const counts = tally(answers)
  figure('card race: redeem requests (100 keys × 10 users)', answers.length)
  figure('card race: answers', JSON.stringify(counts))
  figure('card race: wall time / a bystander’s profile read meanwhile', timing({ ms, bystanderMs }))
  expect(counts).toEqual({ 200: 100, [`409 ${USED_BY_ANOTHER}`]: 900 })

  const { cards, credits } = await redemptions(batchId)
  expect(cards.filter((c) => c.usedById)).toHaveLength(100)
  expect(credits).toHaveLength(100)
  expect(new Set(credits.map((c) => c.reference)).size).toBe(100)
  expect(credits.every((c) => c.amount === VALUE)).toBe(true)
  const creditedTo = new Map(credits.map((c) => [c.reference, c.userId]))
  expect(cards.every((c) => creditedTo.get(`card:${c.id}:redeem`) === c.usedById)).toBe(true)
  // Each card went to the user who was told 兑换成功 for it, once; each user holds what they were told.
  const told = attempts.flatMap(({ user }, i) => (answers[i]!.status === 200 ? [{ cardId: answers[i]!.data.card.id as number, userId: user.id }] : []))
  expect(new Set(told.map((t) => t.cardId)).size).toBe(100)
  expect(told.map((t) => ({ id: t.cardId, usedById: t.userId })).sort((a, b) => a.id - b.id)).toEqual(cards.sort((a, b) => a.id - b.id))
  const profiles = await Promise.all(users.map((u) => json(request, '/api/users/profile', u.auth)))
  const total = profiles.reduce((sum, p) => sum + (p.points as number), 0)
  figure('card race: points credited / expected', `${total} / ${100 * VALUE}`)
  expect(total).toBe(100 * VALUE)
  for (const [i, user] of users.entries()) expect(profiles[i].points).toBe(VALUE * told.filter((t) => t.userId === user.id).length)
})

test('one card key × 200 users at once: exactly one credit', async ({ playwright, request }) => {
  test.setTimeout(180_000)
  const VALUE = 50
  const [key] = cardKeys(1)
  const batchId = await importCards(request, [key!], VALUE)
  const users = await crowd(200, 'onekey')

  const { answers, ms, bystanderMs } = await race(
    playwright,
    users.map((user) => redeem(user, key!)),
  )
  const counts = tally(answers)
  figure('one key × 200 users: answers', JSON.stringify(counts))
  figure('one key × 200 users: wall time / a bystander’s read meanwhile', timing({ ms, bystanderMs }))
  expect(counts).toEqual({ 200: 1, [`409 ${USED_BY_ANOTHER}`]: 199 })

  const { cards, credits } = await redemptions(batchId)
  const winner = users[answers.findIndex((a) => a.status === 200)]!
  expect(cards[0]!.usedById).toBe(winner.id)
  expect(credits).toEqual([{ reference: `card:${cards[0]!.id}:redeem`, userId: winner.id, amount: VALUE }])
  const points = await Promise.all(users.map(async (u) => (await json(request, '/api/users/profile', u.auth)).points as number))
  expect(points.reduce((a, b) => a + b, 0)).toBe(VALUE)
})

test.describe('points and Idempotency-Key', () => {
  const PRICE = 10
  let modelId = ''
  let maxPending: unknown

  test.beforeAll(async ({ request }) => {
    const admin = await asAdmin(request)
    const created = await request.post('/api/admin/models', {
      headers: admin,
      data: { name: uniqueName('竞速'), backend: 'demo', prices: { SD_TEXT2IMG: PRICE }, options: { stepMs: 0 }, concurrency: 4, sort: 900 },
    })
    expect(created.ok(), await created.text()).toBeTruthy()
    modelId = (await created.json()).data.id
    // 50 submits at once must be decided by points alone, not by the pending-task limit.
    const items = (await json(request, '/api/site-config', admin)).items as Array<{ name: string; value: unknown }>
    maxPending = items.find((i) => i.name === 'TASK_MAX_PENDING_PER_USER')!.value
    const set = await request.patch('/api/site-config/TASK_MAX_PENDING_PER_USER', { headers: admin, data: { value: 100 } })
    expect(set.ok(), await set.text()).toBeTruthy()
  })

  test.afterAll(async ({ request }) => {
    const admin = await asAdmin(request)
    await request.patch('/api/site-config/TASK_MAX_PENDING_PER_USER', { headers: admin, data: { value: maxPending } })
    await request.patch(`/api/admin/models/${modelId}`, { headers: admin, data: { enabled: false } })
  })

  const submit =
    (user: CrowdUser, headers: Record<string, string> = {}): Send =>
    (api) =>
      api.post('/api/tasks', {
        headers: { ...user.auth, ...headers },
        data: { type: 'SD_TEXT2IMG', modelId, params: { prompt: '并发扣费', count: 1 } },
        ...SLOW,
      })

  test('100 points, 50 submits of 10 at once: 10 accepted, 40 refused 积分不足, 0 left', async ({ playwright, request }) => {
    test.setTimeout(180_000)
    const [user] = await crowd(1, 'points')
    await adjust(request, user!.id, { points: 100 })

    const { answers, ms, bystanderMs } = await race(
      playwright,
      Array.from({ length: 50 }, () => submit(user!)),
    )
    const counts = tally(answers)
    figure('50 submits against 100 points: answers', JSON.stringify(counts))
    figure('50 submits against 100 points: wall time / a bystander’s read meanwhile', timing({ ms, bystanderMs }))
    expect(counts).toEqual({ 200: 10, [`402 积分不足：本次需要 ${PRICE} 积分，当前 0 积分`]: 40 })
    expect((await json(request, '/api/users/profile', user!.auth)).points).toBe(0)

    // The ten tasks run to the end and keep their charge (no refund brings points back).
    const accepted = answers.filter((a) => a.status === 200).map((a) => a.data.id as string)
    await expect
      .poll(async () => Promise.all(accepted.map(async (id) => (await json(request, `/api/tasks/${id}`, user!.auth)).status)), { timeout: 60_000 })
      .toEqual(Array(10).fill('SUCCESS'))
    const charges = await sql<{ amount: number }>(
      `SELECT "amount" FROM "LedgerEntry" WHERE "userId" = $1 AND "account" = 'POINTS' AND "kind" <> 'ADMIN_ADJUST'`,
      [user!.id],
    )
    expect(charges).toEqual(Array(10).fill({ amount: -PRICE }))
    const left = (await json(request, '/api/users/profile', user!.auth)).points
    figure('50 submits against 100 points: points left after the tasks ran', left)
    expect(left).toBe(0)
  })

  test('one Idempotency-Key sent 20 times at once: one task, one charge, one order, one admin debit', async ({ playwright, request }) => {
    test.setTimeout(180_000)
    // Enough points and balance for exactly one of each: a repeat that were charged again would fail.
    const [user] = await crowd(1, 'idem')
    await adjust(request, user!.id, { points: PRICE, balance: 990 })

    const taskKey = { 'Idempotency-Key': crypto.randomUUID() }
    const tasks = await race(
      playwright,
      Array.from({ length: 20 }, () => submit(user!, taskKey)),
    )
    figure('one key × 20 task submits: answers', JSON.stringify(tally(tasks.answers)))
    expect(tally(tasks.answers)).toEqual({ 200: 20 })
    expect(new Set(tasks.answers.map((a) => a.data.id)).size).toBe(1)
    const mine = await json(request, '/api/tasks?pageSize=100', user!.auth)
    expect(mine.total).toBe(1)
    expect((await json(request, '/api/users/profile', user!.auth)).points).toBe(0)

    // Paid from the balance: the order is made and paid in one transaction.
    const admin = await asAdmin(request)
    const product = await request.post('/api/admin/products', { headers: admin, data: { type: 'POINTS', name: uniqueName('竞速包'), price: 990, points: 500 } })
    expect(product.ok(), await product.text()).toBeTruthy()
    const productId = (await product.json()).data.id as number
    const order =
      (channel: 'BALANCE' | 'WECHAT', key: string): Send =>
      (api) =>
        api.post('/api/orders', {
          headers: { ...user!.auth, 'Idempotency-Key': key },
          data: { productId, type: 'POINTS', channel, ...(channel === 'WECHAT' ? { tradeType: 'NATIVE' } : {}) },
          ...SLOW,
        })
    const balanceKey = crypto.randomUUID()
    const byBalance = await race(
      playwright,
      Array.from({ length: 20 }, () => order('BALANCE', balanceKey)),
    )
    figure('one key × 20 balance orders: answers', JSON.stringify(tally(byBalance.answers)))
    expect(tally(byBalance.answers)).toEqual({ 200: 20 })
    expect(new Set(byBalance.answers.map((a) => a.data.order.id)).size).toBe(1)
    const wallet = await json(request, '/api/users/profile', user!.auth)
    expect([wallet.balance, wallet.points]).toEqual([0, 500])

    // Paid with WeChat: the order is saved, then prepaid at the provider outside any transaction.
    // A repeat that arrives while the first is still being prepaid is told so (409, docs in
    // lib/payments/create-order.ts); every other answer is the one order.
    await enablePayments(request)
    const wechatKey = crypto.randomUUID()
    const byWechat = await race(
      playwright,
      Array.from({ length: 20 }, () => order('WECHAT', wechatKey)),
    )
    const counts = tally(byWechat.answers)
    figure('one key × 20 WeChat orders: answers', JSON.stringify(counts))
    expect(Object.keys(counts).filter((k) => k !== '200' && k !== `409 ${MAKING}`)).toEqual([])
    expect(counts['200']).toBeGreaterThanOrEqual(1)
    const ids = new Set(byWechat.answers.filter((a) => a.status === 200).map((a) => a.data.order.id))
    expect(ids.size).toBe(1)
    const again = await answerOf(await order('WECHAT', wechatKey)(request))
    expect(again.status).toBe(200)
    expect(ids.has(again.data.order.id)).toBe(true)
    const orders = await json(request, '/api/orders?pageSize=100', user!.auth)
    expect(orders.total).toBe(2)

    // The admin's dialog retried 20 times at once, taking the 500 points back: booked once.
    const adminKey = { ...(await asAdmin(request)), 'Idempotency-Key': crypto.randomUUID() }
    const debit: Send = (api) => api.post(`/api/admin/user/${user!.id}/adjust`, { headers: adminKey, data: { points: -500, reason: '收回' }, ...SLOW })
    const debits = await race(playwright, Array(20).fill(debit))
    figure('one key × 20 admin debits: answers', JSON.stringify(tally(debits.answers)))
    expect(tally(debits.answers)).toEqual({ 200: 20 })
    expect(debits.answers.every((a) => a.data.points === 0 && a.data.balance === 0)).toBe(true)
    const booked = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "LedgerEntry" WHERE "userId" = $1 AND "amount" = -500`, [user!.id])
    expect(booked[0]!.n).toBe(1)
    const made = await sql<{ channel: string; n: number }>(
      `SELECT "channel"::text, count(*)::int AS n FROM "Order" WHERE "userId" = $1 GROUP BY 1 ORDER BY 1`,
      [user!.id],
    )
    figure(
      'one key × 20: tasks / orders by channel / admin debits booked',
      `${mine.total} / ${made.map((m) => `${m.channel} ${m.n}`).join(', ')} / ${booked[0]!.n}`,
    )
    expect(made).toEqual([
      { channel: 'BALANCE', n: 1 },
      { channel: 'WECHAT', n: 1 },
    ])
  })
})

test('100 invitees’ orders paid at once: 100 commission records, the exact sum', async ({ playwright, request }) => {
  test.setTimeout(300_000)
  const admin = await asAdmin(request)
  const PRICE = 1990
  const RATE = 10
  const before = await json(request, '/api/admin/commission', admin)
  const set = await request.post('/api/admin/commission/update', { headers: admin, data: { rates: { POINTS: RATE }, payAs: 'BALANCE' } })
  expect(set.ok(), await set.text()).toBeTruthy()
  try {
    await enablePayments(request)
    const product = await request.post('/api/admin/products', {
      headers: admin,
      data: { type: 'POINTS', name: uniqueName('邀请竞速'), price: PRICE, points: 2000 },
    })
    expect(product.ok(), await product.text()).toBeTruthy()
    const productId = (await product.json()).data.id as number

    const [inviter] = await crowd(1, 'inviter')
    const { code } = await json(request, '/api/users/my/invite', inviter!.auth)
    const invitees = await crowd(100, 'invitee')
    const bound = await race(
      playwright,
      invitees.map((u) => (api) => api.post('/api/users/bind_invite', { headers: u.auth, data: { code }, ...SLOW })),
    )
    figure('100 invitees bind one code at once: answers', JSON.stringify(tally(bound.answers)))
    figure('100 bindings at once: wall time / a bystander’s read meanwhile', timing(bound))
    expect(tally(bound.answers)).toEqual({ 200: 100 })
    expect((await json(request, '/api/users/my/invite', inviter!.auth)).invitedCount).toBe(100)

    const made = await race(
      playwright,
      invitees.map(
        (u) => (api) =>
          api.post('/api/orders', {
            headers: { ...u.auth, 'Idempotency-Key': crypto.randomUUID() },
            data: { productId, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' },
            ...SLOW,
          }),
      ),
    )
    expect(tally(made.answers)).toEqual({ 200: 100 })
    const orders = made.answers.map((a) => a.data.order as { id: string; outTradeNo: string })

    // Every buyer pays at the same moment: 100 notifications reach the site together.
    const payments = await watched(playwright, () => Promise.all(orders.map((o) => payWechatOrder(o.outTradeNo))))
    figure('100 invitees pay at once: wall time / a bystander’s read meanwhile', timing(payments))
    const statuses = await Promise.all(orders.map(async (o, i) => (await json(request, `/api/orders/${o.id}`, invitees[i]!.auth)).status))
    expect(statuses).toEqual(Array(100).fill('SUCCESS'))

    const expected = 100 * Math.floor((PRICE * RATE) / 100)
    const check = async () => {
      const records = await json(request, '/api/users/my/invite/records?pageSize=100', inviter!.auth)
      const invite = await json(request, '/api/users/my/invite', inviter!.auth)
      const balance = (await json(request, '/api/users/profile', inviter!.auth)).balance as number
      const rows = await sql<{ n: number; orders: number; sum: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT "orderId")::int AS orders, COALESCE(sum("amount"), 0)::int AS sum FROM "CommissionRecord" WHERE "inviterId" = $1`,
        [inviter!.id],
      )
      return { records: records.total as number, distinctOrders: rows[0]!.orders, recordSum: rows[0]!.sum, earned: invite.earnings.balance as number, balance }
    }
    const paid = await check()
    figure('commission: records / distinct orders', `${paid.records} / ${paid.distinctOrders}`)
    figure('commission: sum credited / expected (cents)', `${paid.balance} / ${expected}`)
    expect(paid).toEqual({ records: 100, distinctOrders: 100, recordSum: expected, earned: expected, balance: expected })
    const points = await Promise.all(invitees.map(async (u) => (await json(request, '/api/users/profile', u.auth)).points as number))
    expect(points.every((p) => p === 2000)).toBe(true)

    // WeChat sends the 100 notifications again, all at once: nothing more is paid.
    const replays = await watched(playwright, () => Promise.all(orders.map((o) => payWechatOrder(o.outTradeNo))))
    figure('100 repeated notifications at once: wall time / a bystander’s read meanwhile', timing(replays))
    expect(await check()).toEqual(paid)
    figure('commission after 100 repeated notifications: records / sum', `${paid.records} / ${paid.balance}`)
  } finally {
    await request.post('/api/admin/commission/update', { headers: admin, data: { rates: before.rates, payAs: before.payAs } })
  }
})

// User A on 1,000 ids aimed at user B's tasks and orders (B's real ids on every route that takes
// one, the rest random ids): each answers 404, and B's rows are unchanged afterwards. A's card
// list never shows B's card.
import type { APIRequestContext } from '@playwright/test'
import { asAdmin, registerViaApi, uniqueName } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const PROBES = 1000

async function json(request: APIRequestContext, url: string, token: string) {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } })
  expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy()
  return (await res.json()).data
}

test('user A on 1,000 ids of user B: 404 each, nothing of B changed', async ({ request }) => {
  test.setTimeout(240_000)
  const admin = await asAdmin(request)
  const a = await registerViaApi(request)
  const b = await registerViaApi(request)
  const bAuth = { authorization: `Bearer ${b.token}` }
  const bId = (await json(request, '/api/users/profile', b.token)).id
  const adjusted = await request.post(`/api/admin/user/${bId}/adjust`, {
    headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() },
    data: { points: 10, balance: 1000, reason: 'sweep' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()

  // B's task (the demo renderer) and B's order for a points pack, paid from the balance.
  const task = await request.post('/api/tasks', { headers: bAuth, data: { type: 'SD_TEXT2IMG', params: { prompt: 'ownership sweep', count: 1 } } })
  expect(task.ok(), await task.text()).toBeTruthy()
  const taskId = (await task.json()).data.id as string
  const product = await request.post('/api/admin/products', {
    headers: admin,
    data: { type: 'POINTS', name: uniqueName('sweep'), description: '', price: 100, points: 100 },
  })
  expect(product.ok(), await product.text()).toBeTruthy()
  const order = await request.post('/api/orders', {
    headers: { ...bAuth, 'Idempotency-Key': crypto.randomUUID() },
    data: { productId: (await product.json()).data.id, type: 'POINTS', channel: 'BALANCE' },
  })
  expect(order.ok(), await order.text()).toBeTruthy()
  const orderId = (await order.json()).data.order.id as string
  await expect.poll(async () => (await json(request, `/api/tasks/${taskId}`, b.token)).status, { timeout: 30_000 }).toBe('SUCCESS')
  const before = { task: await json(request, `/api/tasks/${taskId}`, b.token), order: await json(request, `/api/orders/${orderId}`, b.token) }

  // Every route that takes B's id, with B's real ids; then random ids on the reads until 1,000.
  const aimed: Array<[string, string]> = [
    ['GET', `/api/tasks/${taskId}`],
    ['DELETE', `/api/tasks/${taskId}`],
    ['POST', `/api/tasks/${taskId}/publish`],
    ['POST', `/api/tasks/${taskId}/unpublish`],
    ['POST', `/api/tasks/${taskId}/cancel`],
    ['POST', `/api/tasks/${taskId}/action`],
    ['GET', `/api/orders/${orderId}`],
    ['POST', `/api/orders/${orderId}/cancel`],
    ['GET', `/api/chat/conversations/${taskId}/messages`],
    ['PATCH', `/api/chat/conversations/${taskId}`],
    ['DELETE', `/api/chat/conversations/${taskId}`],
  ]
  const guess = () => `c${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`
  const reads = ['/api/tasks/', '/api/orders/', '/api/chat/conversations/']
  while (aimed.length < PROBES) aimed.push(['GET', `${reads[aimed.length % reads.length]}${guess()}${aimed.length % 3 === 2 ? '/messages' : ''}`])

  const wrong: string[] = []
  const aAuth = { authorization: `Bearer ${a.token}`, 'Idempotency-Key': '' }
  for (let i = 0; i < aimed.length; i += 20) {
    await Promise.all(
      aimed.slice(i, i + 20).map(async ([method, url]) => {
        // A valid body for each write, so the answer is about whose row it is, not about the input.
        const data = url.endsWith('/action') ? { customId: 'MJ::JOB::upsample::1::x' } : url.endsWith('/publish') ? { index: 0 } : { title: 'x' }
        const body = method === 'POST' || method === 'PATCH' ? { data } : {}
        const res = await request.fetch(url, { method, headers: { ...aAuth, 'Idempotency-Key': crypto.randomUUID() }, ...body })
        if (res.status() !== 404) wrong.push(`${method} ${url}: ${res.status()} ${(await res.text()).slice(0, 120)}`)
      }),
    )
  }
  figure('ownership probes by user A', aimed.length)
  figure('ownership probes not answered 404', wrong.length)
  expect(wrong).toEqual([])

  // B's rows are as they were; A's card list does not show B's.
  expect(await json(request, `/api/tasks/${taskId}`, b.token)).toEqual(before.task)
  expect(await json(request, `/api/orders/${orderId}`, b.token)).toEqual(before.order)
  const aCards = await json(request, '/api/my-cards', a.token)
  expect(Array.isArray(aCards) ? aCards : aCards.list).toEqual([])
})

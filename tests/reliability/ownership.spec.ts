// User A on 1,000 ids of user B's rows: B's real ids on every route that takes one (tasks,
// orders, conversations, card keys and card ids, uploads given as task, video-frame, Midjourney
// and chat inputs, result images of B's tasks), B's private video file under /files, then
// hundreds more of B's tasks, orders, conversations and uploads, and a few cards (copies of the
// rows above under new ids, written straight into the database), read and written by A: each
// answers 404. Signed links to a paid video B bought, with A's id put in, the expiry pushed out
// or A's own download, answer 403 (the link is the permission, docs/PRODUCT.md §18). Afterwards
// B's rows read back unchanged, column by column, and A holds nothing of B's.
import type { APIRequestContext } from '@playwright/test'
import type pg from 'pg'
import { asAdmin, registerViaApi, uniqueName } from '../e2e/support/session'
import { at } from '../helpers/present'
import { withDatabase } from './support/database'
import { expect, figure, test } from './support/fixtures'
import { mp4Clip, png } from './support/media'

const PROBES = 1000

async function json(request: APIRequestContext, url: string, token: string) {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } })
  expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy()
  return (await res.json()).data
}

type Probe = { method: string; url: string; data?: unknown; expect?: number }

test('user A on 1,000 ids of user B: 404 each, nothing of B changed', async ({ request }) => {
  test.setTimeout(300_000)
  const admin = await asAdmin(request)
  const a = await registerViaApi(request)
  const b = await registerViaApi(request)
  const bAuth = { authorization: `Bearer ${b.token}` }
  const aAuth = { authorization: `Bearer ${a.token}` }
  const adminPost = async (url: string, data: unknown) => {
    const res = await request.post(url, { headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() }, data })
    expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy()
    return (await res.json()).data
  }
  const bId = (await json(request, '/api/users/profile', b.token)).id
  const aId = (await json(request, '/api/users/profile', a.token)).id
  await adminPost(`/api/admin/user/${bId}/adjust`, { points: 10, balance: 1000, reason: 'sweep' })

  // B's task (the demo renderer) and B's order for a points pack, paid from the balance.
  const task = await request.post('/api/tasks', { headers: bAuth, data: { type: 'SD_TEXT2IMG', params: { prompt: 'ownership sweep', count: 1 } } })
  expect(task.ok(), await task.text()).toBeTruthy()
  const taskId = (await task.json()).data.id as string
  const product = await adminPost('/api/admin/products', { type: 'POINTS', name: uniqueName('sweep'), description: '', price: 100, points: 100 })
  const order = await request.post('/api/orders', {
    headers: { ...bAuth, 'Idempotency-Key': crypto.randomUUID() },
    data: { productId: product.id, type: 'POINTS', channel: 'BALANCE' },
  })
  expect(order.ok(), await order.text()).toBeTruthy()
  const orderId = (await order.json()).data.order.id as string

  // B's upload, B's conversation with a model that reads images, and a card key held by B.
  const uploaded = await request.post('/api/uploads', {
    headers: bAuth,
    multipart: { file: { name: 'b.png', mimeType: 'image/png', buffer: await png(24, '#b33') } },
  })
  expect(uploaded.ok(), await uploaded.text()).toBeTruthy()
  const uploadId = (await uploaded.json()).data.id as string
  const vision = await adminPost('/api/admin/chat-models', {
    name: uniqueName('识图'),
    endpoint: 'http://127.0.0.1:9',
    model: 'x',
    pricePerMessage: 0,
    vision: true,
  })
  const conversationOf = async (auth: Record<string, string>) =>
    (await (await request.post('/api/chat/conversations', { headers: auth, data: { modelId: vision.id } })).json()).data.id as string
  const bConversation = await conversationOf(bAuth)
  const aConversation = await conversationOf(aAuth)
  const cardKey = `O${Date.now().toString(36).toUpperCase()}OWNB`
  const { batchId } = await adminPost('/api/admin/cards/batch_import', { cards: [cardKey], points: 7 })
  let cardId = 0
  await expect
    .poll(
      async () => {
        const card = (await json(request, `/api/admin/cards?batchId=${batchId}`, admin.authorization.replace('Bearer ', ''))).list[0]
        cardId = card?.id ?? 0
        return card?.status
      },
      { timeout: 30_000 },
    )
    .toBe('SUCCESS')
  await adminPost(`/api/admin/cards/${cardId}/assign`, { userId: bId })

  // A paid video B bought: B's signed link to the original, and where the original is stored.
  const uploadedVideo = await request.post('/api/admin/videos', {
    headers: admin,
    multipart: {
      file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await mp4Clip() },
      title: uniqueName('付费'),
      kind: 'paid',
      price: '200',
      published: 'true',
    },
  })
  expect(uploadedVideo.ok(), await uploadedVideo.text()).toBeTruthy()
  const videoId = (await uploadedVideo.json()).data.id as string
  const bought = await request.post('/api/orders', {
    headers: { ...bAuth, 'Idempotency-Key': crypto.randomUUID() },
    data: { type: 'BUY_VIDEO_MATERIAL', videoIds: [videoId], channel: 'BALANCE' },
  })
  expect(bought.ok(), await bought.text()).toBeTruthy()
  const bLink = new URL((await json(request, `/api/videos/${videoId}`, b.token)).playUrl, 'http://site')
  expect((await request.get(`${bLink.pathname}${bLink.search}`)).status(), 'B’s own link plays').toBe(200)
  const fileKey = await withDatabase(
    async (db) => (await db.query<{ fileKey: string }>('SELECT "fileKey" FROM "Video" WHERE id = $1', [videoId])).rows[0]?.fileKey,
  )
  const linkWith = (change: Record<string, string>) => {
    const query = new URLSearchParams(bLink.search)
    for (const [k, v] of Object.entries(change)) query.set(k, v)
    return `${bLink.pathname}?${query}`
  }

  await expect.poll(async () => (await json(request, `/api/tasks/${taskId}`, b.token)).status, { timeout: 30_000 }).toBe('SUCCESS')
  const bState = async () => ({
    task: await json(request, `/api/tasks/${taskId}`, b.token),
    order: await json(request, `/api/orders/${orderId}`, b.token),
    messages: await json(request, `/api/chat/conversations/${bConversation}/messages`, b.token),
    conversations: await json(request, '/api/chat/conversations', b.token),
    cards: await json(request, '/api/my-cards', b.token),
    video: Boolean((await json(request, `/api/videos/${videoId}`, b.token)).playUrl),
  })
  // More of each of B's rows, so A's probes below aim at 1,000 real ids of B's.
  const mine = await withDatabase(async (db) => ({
    tasks: await copiesOf(db, 'Task', taskId, 300, { idempotencyKey: null }),
    orders: await copiesOf(db, 'Order', orderId, 250, { outTradeNo: 'id', idempotencyKey: null, refundNo: null, providerTxnId: null }),
    conversations: await copiesOf(db, 'ChatConversation', bConversation, 250, {}),
    uploads: await copiesOf(db, 'UploadedImage', uploadId, 200, {}),
    // A user's failed redemptions stop at 10 an hour (429): the two below and these.
    cards: (await copiesOf(db, 'Card', cardId, FAILED_REDEMPTIONS_PER_HOUR - 2, { cardNo: 'id', keyHash: 'id' })).map(Number),
  }))
  const before = await bState()
  const rowsBefore = await withDatabase((db) => rowsOf(db, bId))

  // Every route that takes B’s id, with B’s real ids; then the copies, read and written.
  const sd = (params: Record<string, unknown>) => ({ type: 'SD_IMG2IMG', params: { prompt: 'x', count: 1, ...params } })
  const aimed: Probe[] = [
    { method: 'GET', url: `/api/tasks/${taskId}` },
    { method: 'DELETE', url: `/api/tasks/${taskId}` },
    { method: 'POST', url: `/api/tasks/${taskId}/publish`, data: { index: 0 } },
    { method: 'POST', url: `/api/tasks/${taskId}/unpublish` },
    { method: 'POST', url: `/api/tasks/${taskId}/cancel` },
    { method: 'POST', url: `/api/tasks/${taskId}/action`, data: { customId: 'MJ::JOB::upsample::1::x' } },
    { method: 'GET', url: `/api/orders/${orderId}` },
    { method: 'POST', url: `/api/orders/${orderId}/cancel` },
    { method: 'GET', url: `/api/chat/conversations/${bConversation}/messages` },
    { method: 'GET', url: `/api/chat/conversations/${bConversation}` },
    { method: 'POST', url: `/api/chat/conversations/${bConversation}/messages`, data: { content: '你好' } },
    { method: 'PATCH', url: `/api/chat/conversations/${bConversation}`, data: { title: 'x' } },
    { method: 'DELETE', url: `/api/chat/conversations/${bConversation}` },
    // B's upload and B's result image as A's inputs.
    { method: 'POST', url: '/api/tasks', data: sd({ initImageId: uploadId }) },
    { method: 'POST', url: '/api/tasks', data: { type: 'SD_IMGINPAINT', params: { prompt: 'x', count: 1, initImageId: uploadId, maskImageId: uploadId } } },
    { method: 'POST', url: '/api/tasks', data: { type: 'MJ_IMG2IMG', params: { mjAction: 'DESCRIBE', referenceImageIds: [uploadId] } } },
    { method: 'POST', url: '/api/tasks', data: { type: 'VIDEO_IMG2VIDEO', params: { prompt: 'x', durationSec: 5, imageId: uploadId } } },
    { method: 'POST', url: '/api/tasks', data: { type: 'VIDEO_IMG2VIDEO', params: { prompt: 'x', durationSec: 5, imageId: `task:${taskId}:0` } } },
    { method: 'POST', url: '/api/tasks', data: { type: 'MAKE_SAME', params: { sourceTaskId: taskId } } },
    { method: 'POST', url: `/api/chat/conversations/${aConversation}/messages`, data: { content: '这是什么', images: [uploadId] } },
    // B's card, by its id and by its key.
    { method: 'POST', url: '/api/my-cards/redeem', data: { cardId } },
    { method: 'POST', url: '/api/my-cards/redeem', data: { cardKey } },
    // The stored original of B's video, straight from /files, and with the path dressed up.
    { method: 'GET', url: `/files/${fileKey}` },
    { method: 'GET', url: `/files/${fileKey}?download=a.mp4` },
    { method: 'GET', url: `/files/uploads/..%2F${fileKey}` },
    { method: 'GET', url: `/files/${String(fileKey).replace('/', '%2F')}` },
    // B's signed link to the paid original: made A's, or made to last; A's own download.
    { method: 'GET', url: linkWith({ u: aId }), expect: 403 },
    { method: 'GET', url: linkWith({ e: String(Math.floor(Date.now() / 1000) + 86_400 * 365) }), expect: 403 },
    { method: 'GET', url: linkWith({ s: 'x'.repeat(String(new URLSearchParams(bLink.search).get('s')).length) }), expect: 403 },
    { method: 'GET', url: `/api/videos/${videoId}/download`, expect: 403 },
  ]
  const onTask = (id: string, i: number): Probe =>
    at<Probe>(
      [
        { method: 'GET', url: `/api/tasks/${id}` },
        { method: 'DELETE', url: `/api/tasks/${id}` },
        { method: 'POST', url: `/api/tasks/${id}/publish`, data: { index: 0 } },
        { method: 'POST', url: `/api/tasks/${id}/unpublish` },
        { method: 'POST', url: `/api/tasks/${id}/cancel` },
      ],
      i % 5,
    )
  const onConversation = (id: string, i: number): Probe =>
    at<Probe>(
      [
        { method: 'GET', url: `/api/chat/conversations/${id}/messages` },
        { method: 'GET', url: `/api/chat/conversations/${id}` },
        { method: 'PATCH', url: `/api/chat/conversations/${id}`, data: { title: 'x' } },
        { method: 'DELETE', url: `/api/chat/conversations/${id}` },
        { method: 'POST', url: `/api/chat/conversations/${id}/messages`, data: { content: '你好' } },
      ],
      i % 5,
    )
  aimed.push(
    ...mine.tasks.map(onTask),
    ...mine.orders.map((id, i): Probe => (i % 2 ? { method: 'POST', url: `/api/orders/${id}/cancel` } : { method: 'GET', url: `/api/orders/${id}` })),
    ...mine.conversations.map(onConversation),
    ...mine.uploads.map((id, i): Probe =>
      i % 2
        ? { method: 'POST', url: `/api/chat/conversations/${aConversation}/messages`, data: { content: '这是什么', images: [id] } }
        : { method: 'POST', url: '/api/tasks', data: sd({ initImageId: id }) },
    ),
    ...mine.cards.map((id): Probe => ({ method: 'POST', url: '/api/my-cards/redeem', data: { cardId: id } })),
  )
  expect(aimed.length).toBeGreaterThanOrEqual(PROBES)

  const wrong: string[] = []
  const answered = { 404: 0, 403: 0 }
  const probe = async ({ method, url, data, expect: wanted = 404 }: Probe) => {
    // A valid body for each write, so the answer is about whose row it is, not about the input.
    const body = data ?? (method === 'POST' || method === 'PATCH' ? { title: 'x' } : undefined)
    const res = await request.fetch(url, {
      method,
      headers: { ...aAuth, 'Idempotency-Key': crypto.randomUUID() },
      maxRedirects: 0,
      ...(body ? { data: body } : {}),
    })
    if (res.status() !== wanted) wrong.push(`${method} ${url}: ${res.status()}, not ${wanted}: ${(await res.text()).slice(0, 120)}`)
    else answered[wanted as 404 | 403]++
  }
  // A chat question holds one of the user's 3 answer places while it is checked (429 beyond), so those go one at a time.
  const asks = (p: Probe) => p.method === 'POST' && p.url.endsWith('/messages')
  const together = aimed.filter((p) => !asks(p))
  for (let i = 0; i < together.length; i += 20) await Promise.all(together.slice(i, i + 20).map(probe))
  for (const p of aimed.filter(asks)) await probe(p)
  figure('ownership probes by user A on B’s real ids', aimed.length)
  figure('ownership probes answered 404 / 403 (signed video links)', `${answered[404]} / ${answered[403]}`)
  figure('ownership probes answered otherwise', wrong.length)
  expect(wrong).toEqual([])

  // B's rows are as they were; A holds none of B's cards and got no image of B's into a task.
  expect(await bState()).toEqual(before)
  expect(await withDatabase((db) => rowsOf(db, bId))).toEqual(rowsBefore)
  const aCards = await json(request, '/api/my-cards', a.token)
  expect(Array.isArray(aCards) ? aCards : aCards.list).toEqual([])
  expect((await json(request, '/api/tasks', a.token)).total).toBe(0)
  expect((await json(request, `/api/chat/conversations/${aConversation}/messages`, a.token)).total).toBe(0)
  // The copies and the model, which never answered anyone, out of the way of the specs that follow.
  await withDatabase(async (db) => {
    for (const [table, ids] of [
      ['Task', mine.tasks],
      ['Order', mine.orders],
      ['ChatConversation', mine.conversations],
      ['UploadedImage', mine.uploads],
    ] as const) {
      await db.query(`DELETE FROM "${table}" WHERE "id" = ANY ($1::text[])`, [ids])
    }
    await db.query('DELETE FROM "Card" WHERE "id" = ANY ($1::int[])', [mine.cards])
  })
  expect((await request.patch(`/api/admin/chat-models/${vision.id}`, { headers: admin, data: { enabled: false } })).ok()).toBeTruthy()
})

/** Failed card redemptions one user may make in an hour before the site answers 429 (lib/cards/redeem-card.ts). */
const FAILED_REDEMPTIONS_PER_HOUR = 10

/**
 * Copies of one row under new ids, the columns in `change` set to null, or made unique
 * like the id when given as 'id'. Answers the new ids.
 */
async function copiesOf(db: pg.Client, table: string, id: string | number, copies: number, change: Record<string, 'id' | null>): Promise<string[]> {
  const newId = typeof id === 'number' ? `nextval(pg_get_serial_sequence('"${table}"', 'id'))` : `'c' || left(md5($2 || g), 24)`
  const unique = Object.entries(change).map(([column, to]) => `, '${column}', ${to === 'id' ? `'own-' || left(md5($2 || g), 20)` : 'NULL'}`)
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO "${table}" SELECT (jsonb_populate_record(NULL::"${table}", to_jsonb(t) || jsonb_build_object('id', ${newId}${unique.join('')}))).*
     FROM "${table}" t, generate_series(1, ${copies}) g WHERE t."id" = $1 RETURNING "id"::text`,
    [id, `${table}-${crypto.randomUUID()}`],
  )
  return rows.map((r) => r.id)
}

/** Every row of B's in the tables A aimed at, as text: what "nothing changed" compares. */
async function rowsOf(db: pg.Client, userId: string): Promise<Record<string, string | null>> {
  const owned = {
    Task: '"userId" = $1',
    Order: '"userId" = $1',
    ChatConversation: '"userId" = $1',
    UploadedImage: '"userId" = $1',
    Card: '"holderId" = $1 OR "usedById" = $1',
  }
  const rows: Record<string, string | null> = {}
  for (const [table, where] of Object.entries(owned)) {
    const sql = `SELECT string_agg(to_jsonb(r)::text, ',' ORDER BY "id") AS "rows" FROM "${table}" r WHERE ${where}`
    rows[table] = (await db.query<{ rows: string | null }>(sql, [userId])).rows[0]?.rows ?? null
  }
  return rows
}

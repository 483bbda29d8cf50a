// Mass assignment: every write route under app/api (POST/PUT/PATCH/DELETE, found on disk, so a new
// one fails this spec until it has an entry in ROUTES), called by the lowest role its route()
// allows with a valid body plus fields no caller may set: owner ids (a bystander's), role, points,
// balance, amounts, status, flags, ids, timestamps, hashes, keys. Afterwards SQL over every column
// of every table finds none of the values sent, the bystander owns nothing new, no flag was switched
// on, no staff role appeared and nothing was cancelled by a route that does not cancel. A route that refuses the extra fields (a
// strict schema: 400 不支持的参数) must then accept the valid body alone, which proves the body right.
import { readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { APIResponse } from '@playwright/test'
import { startFakeChatStream } from '../fakes/openai-chat'
import { enablePayments } from '../e2e/support/payment-fakes'
import { E2E_ALIYUN, E2E_WECHAT, lastSmsCode } from '../e2e/support/sign-in-fakes'
import { asAdmin, loginViaApi, uniqueName } from '../e2e/support/session'
import { first, present } from '../helpers/present'
import { withDatabase } from './support/database'
import { expect, figure, test } from './support/fixtures'
import { mp4Clip, png } from './support/media'

const API = path.resolve(import.meta.dirname, '../../app/api')
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const
type Method = (typeof METHODS)[number]

const MARK = 'massassign'
const MAGIC = 987_654
const AT = '2001-02-03T04:05:06.000Z'

/** Boolean columns a caller must not switch on: the scan counts the rows where they are true. */
const FLAGS = ['featured', 'isRecommended', 'cancelRequested', 'incomplete']

/** Fields no caller may set, with values the scan can find: MARK in text, MAGIC in numbers, the year 2001 in timestamps. */
function extraFields(bystanderId: string): Record<string, unknown> {
  const text = Object.fromEntries(
    [
      'passwordHash',
      'avatar',
      'wxOpenId',
      'wxUnionId',
      'inviteCode',
      'keyHash',
      'keyMask',
      'cardKeyEnc',
      'secretEnc',
      'outTradeNo',
      'providerTxnId',
      'storageKey',
      'url',
      'imageUrl',
      'thumbUrl',
      'upstreamId',
      'requestHash',
      'idempotencyKey',
      'leaseOwner',
      'refundNo',
    ].map((k) => [k, `${MARK}-${k}`]),
  )
  const numbers = Object.fromEntries(
    ['points', 'balance', 'amount', 'amountCents', 'price', 'chargedPoints', 'likes', 'reports', 'tokenVersion', 'progress', 'attempts', 'commission'].map(
      (k) => [k, MAGIC],
    ),
  )
  const times = Object.fromEntries(
    [
      'createdAt',
      'updatedAt',
      'usedAt',
      'paidAt',
      'bannedAt',
      'disabledAt',
      'deletedAt',
      'refundedAt',
      'finishedAt',
      'invitedAt',
      'agreedTermsAt',
      'expiresAt',
      'listedAt',
      'closedAt',
    ].map((k) => [k, AT]),
  )
  const owners = Object.fromEntries(['userId', 'holderId', 'usedById', 'inviterId', 'ownerId', 'authorId'].map((k) => [k, bystanderId]))
  const flags = Object.fromEntries(FLAGS.map((k) => [k, true]))
  return { id: `${MARK}-id`, ...owners, role: 'ADMIN', isAdmin: true, status: 'CANCELED', ...flags, ...text, ...numbers, ...times }
}

type Call = {
  /** Values for the [segments] of the route's path. */
  params?: Record<string, string | number>
  body?: Record<string, unknown>
  /** Multipart fields (files as {name, mimeType, buffer}); the extra fields ride along as text fields. */
  multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>
  /** A raw body (no field can ride along): sent as it is. */
  raw?: Buffer
  /** Another caller than the route's lowest role (a throwaway account for logout, a password change). */
  token?: string | null
}
type Entry = {
  /** What the call needs (creates its own rows for deletes); omitted: no params, an empty body. */
  prepare?: () => Promise<Call> | Call
  /** Fields of EXTRA that are this route's own input (an admin setting a role, a product's price): not sent as extras. */
  accepts?: string[]
  /** The route ends with a cancellation of its own (CANCELED rows and cancelRequested are expected). */
  cancels?: true
  /** Flags (FLAGS) this route switches on by its nature (recommending a work features it). */
  sets?: string[]
  /** Tables that record a request verbatim, whatever its fate (payment notifications): the values may land there. */
  logs?: string[]
  /** The statuses a call that needs an outside party answers (a wrong SMS code, a WeChat state): the domain's refusal. */
  refusal?: number[]
  /** How the extra fields are placed in the body; default beside the valid fields. */
  inject?: (body: Record<string, unknown>, extra: Record<string, unknown>) => Record<string, unknown>
}

type Endpoint = { key: string; method: Method; route: string; access: string }

/** Every write method of every route.ts under app/api, with the access its route() declares. */
async function writeEndpoints(): Promise<Endpoint[]> {
  const files = (await readdir(API, { recursive: true })).filter((f) => path.basename(f) === 'route.ts')
  const found: Endpoint[] = []
  for (const file of files) {
    const source = readFileSync(path.join(API, file), 'utf8')
    const route = `/api/${path.dirname(file).split(path.sep).join('/')}`.replace(/\/\.$/, '')
    const exports = [...source.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g)]
    for (const [i, match] of exports.entries()) {
      const method = match[1] as Method | 'GET'
      if (method === 'GET') continue
      const body = source.slice(match.index, exports[i + 1]?.index ?? source.length)
      // A handler without route() (payment notifications) reads its own raw body: anyone may call it.
      const access = /access: '(\w+)'/.exec(body)?.[1] ?? 'public'
      found.push({ key: `${method} ${route}`, method, route, access })
    }
  }
  return found.sort((a, b) => a.key.localeCompare(b.key))
}

/** Where a value sent as an extra field landed: `table.column` for every column holding one. */
async function scan(bystanderId: string) {
  return withDatabase(async (db) => {
    const { rows: columns } = await db.query<{ table_name: string; column_name: string; data_type: string }>(
      // The kept list totals ("…Count") are written by triggers from the other tables' rows, never
      // from a request: their rows of deltas carry the statuses and flags of the rows they count.
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' AND table_name NOT LIKE '%Count'`,
    )
    const parts: string[] = []
    for (const { table_name: t, column_name: c, data_type: type } of columns) {
      const col = `"${t}"."${c}"`
      const at = `'${t}.${c}'`
      if (type === 'boolean' && FLAGS.includes(c)) parts.push(`SELECT ${at} AS at, count(*) FILTER (WHERE ${col})::int AS hits, 0 AS bystander FROM "${t}"`)
      else if (/timestamp|date/.test(type))
        parts.push(`SELECT ${at} AS at, count(*) FILTER (WHERE extract(year FROM ${col}) = 2001)::int AS hits, 0 AS bystander FROM "${t}"`)
      else if (/integer|bigint|smallint|numeric/.test(type))
        parts.push(`SELECT ${at} AS at, count(*) FILTER (WHERE ${col} = ${MAGIC})::int AS hits, 0 AS bystander FROM "${t}"`)
      else if (/text|character|json|USER-DEFINED|ARRAY/.test(type)) {
        const bystander = t === 'User' && c === 'id' ? '0' : `count(*) FILTER (WHERE ${col}::text LIKE $1)::int`
        parts.push(`SELECT ${at} AS at, count(*) FILTER (WHERE ${col}::text LIKE '%${MARK}%')::int AS hits, ${bystander} AS bystander FROM "${t}"`)
      }
    }
    const { rows } = await db.query<{ at: string; hits: number; bystander: number }>(parts.join(' UNION ALL '), [`%${bystanderId}%`])
    // Rows with a status of their own.
    const withId = new Set(columns.filter((c) => c.column_name === 'id').map((c) => c.table_name))
    const statusTables = [...new Set(columns.filter((c) => c.column_name === 'status' && withId.has(c.table_name)).map((c) => c.table_name))]
    const { rows: canceled } = await db.query<{ row: string }>(
      statusTables.map((t) => `SELECT '${t}:' || "id"::text AS row FROM "${t}" WHERE "status"::text = 'CANCELED'`).join(' UNION ALL '),
    )
    const { rows: staff } = await db.query<{ row: string }>(`SELECT "id" || ':' || "role" AS row FROM "User" WHERE "role" <> 'USER' ORDER BY 1`)
    return {
      columns: new Map(rows.map((r) => [r.at, { hits: r.hits, bystander: r.bystander }])),
      canceled: new Set(canceled.map((r) => r.row)),
      staff: staff.map((r) => r.row).join(','),
    }
  })
}

/** The envelope's errMessage, or '' for an answer that is not the envelope (a notification's plain text). */
function errMessageOf(text: string): string {
  try {
    return String((JSON.parse(text) as { errMessage?: unknown }).errMessage ?? '')
  } catch {
    return ''
  }
}

const bearer = (token: string | null | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})

async function ok(res: APIResponse, what: string) {
  expect(res.ok(), `${what}: ${res.status()} ${await res.text()}`).toBeTruthy()
  return (await res.json()).data
}

/** What the sweep switched on for its run, put back even when it fails (later specs expect sign-in without a phone). */
let putBack: (() => Promise<void>) | undefined
test.afterEach(async () => {
  await putBack?.()
  putBack = undefined
})

test('every write route ignores fields a caller must never set', async ({ request }) => {
  test.setTimeout(420_000)
  const admin = await asAdmin(request)
  const adminToken = admin.authorization.replace('Bearer ', '')
  const get = async (url: string, token: string) => ok(await request.get(url, { headers: bearer(token) }), url)
  const post = async (url: string, data: unknown, headers: Record<string, string> = admin) =>
    ok(await request.post(url, { headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() }, data }), url)

  // The callers: a MANAGER for console routes, user U for user routes, painter W whose work U likes,
  // and a bystander whose id goes into every owner field and who never acts.
  const staff = async (role: 'MANAGER' | 'USER') => {
    const username = uniqueName(role.toLowerCase())
    const { id } = await post('/api/admin/user', { username, name: username, password: 'sweep-password-1', role })
    return { id: id as string, username, password: 'sweep-password-1', token: await loginViaApi(request, username, 'sweep-password-1') }
  }
  const manager = await staff('MANAGER')
  const u = await staff('USER')
  const w = await staff('USER')
  const bystander = await staff('USER')
  const uAuth = bearer(u.token)
  await post(`/api/admin/user/${u.id}/adjust`, { points: 300, balance: 10_000, reason: 'mass assignment sweep' })
  await post(`/api/admin/user/${w.id}/adjust`, { points: 20, reason: 'mass assignment sweep' })
  await enablePayments(request)
  // WeChat sign-in and SMS on the fakes, so the sign-in routes get past "not enabled"; put back at the end.
  const signIn = {
    WX_ENABLED: [true, false],
    WX_APP_ID: [E2E_WECHAT.appId, ''],
    WX_APP_SECRET: [E2E_WECHAT.secret, ''],
    ALIYUN_ACCESS_KEY_ID: [E2E_ALIYUN.accessKeyId, ''],
    ALIYUN_ACCESS_KEY_SECRET: [E2E_ALIYUN.accessKeySecret, ''],
    ALIYUN_SMS_SIGN_NAME: [E2E_ALIYUN.signName, ''],
    ALIYUN_SMS_TEMPLATE_CODE: [E2E_ALIYUN.templateCode, ''],
    SMS_PROVIDER: ['aliyun', 'log'],
    SMS_LOGIN_ENABLED: [true, false],
    MOBILE_ENABLED: [true, false],
  }
  const configure = async (which: 0 | 1) => {
    const names = Object.keys(signIn) as Array<keyof typeof signIn>
    for (const name of which === 0 ? names : names.reverse())
      expect((await request.patch(`/api/site-config/${name}`, { headers: admin, data: { value: signIn[name][which] } })).ok(), name).toBeTruthy()
  }
  await configure(0)
  putBack = () => configure(1)
  const mobile = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
  const smsCode = async (number: string, purpose: 'login' | 'bind', token?: string) => {
    await post('/api/auth/sms/send', { mobile: number, purpose }, bearer(token))
    return lastSmsCode('aliyun', number)
  }

  // Backends: a quick demo model (the default), a slow one for tasks that must still be running, a chat model.
  const chat = await startFakeChatStream()
  const quick = await post('/api/admin/models', {
    name: uniqueName('快'),
    backend: 'demo',
    prices: { SD_TEXT2IMG: 1 },
    options: { stepMs: 0 },
    concurrency: 4,
    sort: -20,
  })
  const slow = await post('/api/admin/models', {
    name: uniqueName('慢'),
    backend: 'demo',
    prices: { SD_TEXT2IMG: 1 },
    options: { stepMs: 30_000 },
    concurrency: 4,
    sort: 10_000,
  })
  const chatModel = await post('/api/admin/chat-models', {
    name: uniqueName('对话'),
    endpoint: chat.url,
    secret: chat.key,
    model: 'fake-chat',
    pricePerMessage: 1,
  })

  const submit = async (token: string, modelId = quick.id as string) =>
    (await post('/api/tasks', { type: 'SD_TEXT2IMG', modelId, params: { prompt: '山间云海 sweep', count: 1 } }, bearer(token))).id as string
  const finished = async (token: string) => {
    const id = await submit(token)
    await expect.poll(async () => (await get(`/api/tasks/${id}`, token)).status, { timeout: 30_000 }).toBe('SUCCESS')
    return id
  }
  const uTask = await finished(u.token)
  const wTask = await finished(w.token)
  const wWork = (await post(`/api/tasks/${wTask}/publish`, { index: 0 }, bearer(w.token))).wallId as string
  await post(`/api/admin/wall/${wWork}/approve`, {})
  let uWork = ''

  // Card keys, checked by the worker in the background.
  const cardKeys = ['R', 'A', 'D'].map((p) => `${p}${Date.now().toString(36).toUpperCase()}MASS${p}`)
  const { batchId } = await post('/api/admin/cards/batch_import', { cards: cardKeys, points: 5 })
  let cards: Array<{ id: number; status: string; cardKey: string }> = []
  await expect
    .poll(
      async () => {
        cards = (await get(`/api/admin/cards?batchId=${batchId}`, adminToken)).list
        return cards.every((c) => c.status === 'SUCCESS')
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const cardId = (p: string) =>
    present(
      cards.find((c) => c.cardKey.endsWith(`MASS${p}`.slice(-3))),
      `card ${p}`,
    ).id

  // Products and orders: a points pack; U's orders waiting for WeChat, and one paid from the balance.
  const product = await post('/api/admin/products', { type: 'POINTS', name: uniqueName('sweep'), description: '', price: 100, points: 100 })
  const order = async (channel: 'WECHAT' | 'BALANCE') =>
    (await post('/api/orders', { productId: product.id, type: 'POINTS', channel, ...(channel === 'WECHAT' && { tradeType: 'NATIVE' }) }, uAuth)).order
      .id as string
  const paidOrder = await order('BALANCE')
  const chargeRecord = (await get(`/api/admin/charge-records?userId=${u.id}`, adminToken)).list[0].id as number

  const conversation = async () => (await post('/api/chat/conversations', { modelId: chatModel.id }, uAuth)).id as string
  const video = async () => {
    const res = await request.post('/api/admin/videos', {
      headers: admin,
      multipart: { file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await mp4Clip() }, title: uniqueName('素材'), kind: 'free', published: 'true' },
    })
    return (await ok(res, 'video')).id as string
  }
  const throwawayUser = () => staff('USER')
  const wInvite = (await get('/api/users/my/invite', w.token)).code as string
  const videoId = await video()
  const ticket = async () => (await ok(await request.post('/api/auth/wechat/ticket'), 'ticket')).id as string

  const ROUTES: Record<string, Entry> = {
    // Accounts and sign-in.
    'POST /api/auth/register': { prepare: () => ({ body: { username: uniqueName('reg'), password: 'sweep-password-1', agreeTerms: true } }) },
    'POST /api/auth/login': { prepare: () => ({ body: { username: u.username, password: u.password } }) },
    'POST /api/auth/logout': { prepare: async () => ({ token: (await throwawayUser()).token }) },
    'POST /api/auth/sms/send': { prepare: () => ({ body: { mobile: mobile(), purpose: 'login' } }) },
    'POST /api/auth/sms/login': {
      prepare: async () => {
        const number = mobile()
        return { body: { mobile: number, code: await smsCode(number, 'login'), agreeTerms: true } }
      },
    },
    'POST /api/auth/wechat/authorize': { prepare: () => ({ body: { purpose: 'login', returnPath: '/' } }) },
    // Finishing a WeChat sign-in needs the state cookie of the browser that started it: refused without one.
    'POST /api/auth/wechat/callback': { refusal: [400, 403], prepare: () => ({ body: { code: 'sweep-code', state: 'sweep-state' } }) },
    'POST /api/auth/wechat/ticket': {},
    'POST /api/auth/wechat/ticket/[id]/scan': { prepare: async () => ({ params: { id: await ticket() } }) },
    'POST /api/auth/wechat/ticket/[id]/confirm': { refusal: [400, 403], prepare: async () => ({ params: { id: await ticket() }, body: { key: 'sweep-key' } }) },
    'PATCH /api/users/profile': { prepare: () => ({ body: { name: '新名字' } }) },
    'POST /api/users/password': {
      prepare: async () => {
        const t = await throwawayUser()
        return { token: t.token, body: { currentPassword: t.password, newPassword: 'sweep-password-2' } }
      },
    },
    'POST /api/users/avatar': { prepare: async () => ({ multipart: { file: { name: 'a.png', mimeType: 'image/png', buffer: await png(32) } } }) },
    'POST /api/users/bind_mobile': {
      prepare: async () => {
        const number = mobile()
        return { body: { mobile: number, code: await smsCode(number, 'bind', u.token) } }
      },
    },
    'POST /api/users/bind_invite': { prepare: () => ({ body: { code: wInvite } }) },
    'POST /api/account/check-in': {},
    'POST /api/my-cards/redeem': { prepare: () => ({ body: { cardKey: first(cardKeys) } }) },
    // Creation.
    'POST /api/uploads': { prepare: async () => ({ multipart: { file: { name: 'a.png', mimeType: 'image/png', buffer: await png() } } }) },
    'POST /api/tasks': {
      prepare: () => ({ body: { type: 'SD_TEXT2IMG', modelId: quick.id, params: { prompt: '湖边小屋', count: 1 } } }),
      // The parameters too: a caller must not hand the worker a storage key or a finished prompt.
      inject: (body, extra) => ({ ...extra, ...body, params: { ...(body.params as object), imageKey: `${MARK}/x.png`, finalPrompt: MARK, ...extra } }),
    },
    'POST /api/tasks/[id]/publish': { prepare: () => ({ params: { id: uTask }, body: { index: 0 } }) },
    'POST /api/tasks/[id]/unpublish': { prepare: () => ({ params: { id: uTask } }) },
    'POST /api/tasks/[id]/cancel': { cancels: true, prepare: async () => ({ params: { id: await submit(u.token, slow.id) } }) },
    'POST /api/tasks/[id]/action': { refusal: [400, 404, 409], prepare: () => ({ params: { id: uTask }, body: { customId: 'MJ::JOB::upsample::1::sweep' } }) },
    'DELETE /api/tasks/[id]': { prepare: async () => ({ params: { id: await finished(u.token) } }) },
    'POST /api/wall/[id]/like': { prepare: () => ({ params: { id: wWork } }) },
    'POST /api/wall/[id]/favorite': { prepare: () => ({ params: { id: wWork } }) },
    'POST /api/wall/[id]/report': { prepare: () => ({ params: { id: wWork } }) },
    // Chat.
    'POST /api/chat/conversations': { prepare: () => ({ body: { modelId: chatModel.id, title: '对话' } }) },
    'PATCH /api/chat/conversations/[id]': { prepare: async () => ({ params: { id: await conversation() }, body: { title: '改名' } }) },
    'DELETE /api/chat/conversations/[id]': { prepare: async () => ({ params: { id: await conversation() } }) },
    'POST /api/chat/conversations/[id]/messages': { prepare: async () => ({ params: { id: await conversation() }, body: { content: '你好' } }) },
    // Payments.
    'POST /api/orders': { prepare: () => ({ body: { productId: product.id, type: 'POINTS', channel: 'BALANCE' } }) },
    'POST /api/orders/[id]/cancel': { cancels: true, prepare: async () => ({ params: { id: await order('WECHAT') } }) },
    // Notifications are kept as they arrived (docs/PRODUCT.md §14), a forged one too (60 per address in ten minutes): only that log may hold the values.
    'POST /api/pay/wechat/notify': { refusal: [400, 401], logs: ['PaymentNotification'], prepare: () => ({ body: {} }) },
    'POST /api/pay/alipay/notify': {
      refusal: [400],
      logs: ['PaymentNotification'],
      prepare: () => ({ raw: Buffer.from(`out_trade_no=${MARK}&trade_status=TRADE_SUCCESS&total_amount=9876.54`) }),
    },
    'POST /api/mj/notify/[secret]': { refusal: [404], prepare: () => ({ params: { secret: `${MARK}-secret` }, body: { id: MARK, status: 'SUCCESS' } }) },
    // The console: users, value, cards.
    'POST /api/admin/user': {
      accepts: ['role'],
      prepare: () => ({ body: { username: uniqueName('made'), name: '新用户', password: 'sweep-password-1', role: 'USER' } }),
    },
    'PATCH /api/admin/user/[id]': { accepts: ['role'], prepare: async () => ({ params: { id: (await throwawayUser()).id }, body: { name: '改名' } }) },
    'DELETE /api/admin/user/[id]': { prepare: async () => ({ params: { id: (await throwawayUser()).id } }) },
    'POST /api/admin/user/[id]/adjust': {
      accepts: ['points', 'balance'],
      prepare: async () => ({ params: { id: (await throwawayUser()).id }, body: { points: 5, reason: '补偿' } }),
    },
    'POST /api/admin/cards/batch_import': {
      accepts: ['points', 'expiresAt'],
      prepare: () => ({ body: { cards: [`N${Date.now().toString(36).toUpperCase()}MASSN`], points: 5 } }),
    },
    'POST /api/admin/cards/[id]/assign': { accepts: ['userId'], prepare: () => ({ params: { id: cardId('A') }, body: { userId: u.id } }) },
    'POST /api/admin/cards/[id]/disable': { prepare: () => ({ params: { id: cardId('D') }, body: { disabled: true } }) },
    'POST /api/admin/products': {
      accepts: ['price', 'points', 'balance'],
      prepare: () => ({ body: { type: 'POINTS', name: uniqueName('包'), price: 100, points: 10 } }),
    },
    'PATCH /api/admin/products/[id]': {
      accepts: ['price', 'points', 'balance'],
      prepare: () => ({ params: { id: product.id }, body: { description: '改过' } }),
    },
    'DELETE /api/admin/products/[id]': {
      prepare: async () => ({ params: { id: (await post('/api/admin/products', { type: 'POINTS', name: uniqueName('删'), price: 100, points: 1 })).id } }),
    },
    'POST /api/admin/orders/[id]/mark-paid': { prepare: async () => ({ params: { id: await order('WECHAT') }, body: { reason: '转账凭证' } }) },
    'POST /api/admin/orders/[id]/refund': { cancels: true, prepare: () => ({ params: { id: paidOrder }, body: { reason: '退款' } }) },
    'POST /api/admin/charge-records/[id]/status': {
      accepts: ['status'],
      prepare: () => ({ params: { id: chargeRecord }, body: { status: 'FAIL', note: '对账' } }),
    },
    'POST /api/admin/commission/update': { prepare: () => ({ body: { inviteReward: 0 } }) },
    'PATCH /api/site-config/[name]': { prepare: () => ({ params: { name: 'icp' }, body: { value: '' } }) },
    // The console: generation.
    'POST /api/admin/models': { prepare: () => ({ body: { name: uniqueName('模型'), backend: 'demo', prices: { SD_TEXT2IMG: 1 }, enabled: false } }) },
    'PATCH /api/admin/models/[id]': { prepare: () => ({ params: { id: quick.id }, body: { concurrency: 4 } }) },
    'DELETE /api/admin/models/[id]': {
      prepare: async () => ({ params: { id: (await post('/api/admin/models', { name: uniqueName('删'), backend: 'demo', enabled: false })).id } }),
    },
    'POST /api/admin/models/[id]/test': { prepare: () => ({ params: { id: quick.id } }) },
    'POST /api/admin/tasks/[id]/cancel': { cancels: true, prepare: async () => ({ params: { id: await submit(u.token, slow.id) } }) },
    'POST /api/admin/custom-models': { accepts: ['price'], prepare: () => ({ body: { name: uniqueName('风格'), modelId: quick.id, price: 1 } }) },
    'PATCH /api/admin/custom-models/[id]': {
      accepts: ['price'],
      prepare: async () => ({
        params: { id: (await post('/api/admin/custom-models', { name: uniqueName('风格'), modelId: quick.id, price: 1 })).id },
        body: { sort: 1 },
      }),
    },
    'DELETE /api/admin/custom-models/[id]': {
      prepare: async () => ({ params: { id: (await post('/api/admin/custom-models', { name: uniqueName('删'), modelId: quick.id, price: 1 })).id } }),
    },
    'POST /api/admin/prompts': { prepare: () => ({ body: { category: '风景', title: uniqueName('提示'), prompt: '雪山' } }) },
    'PATCH /api/admin/prompts/[id]': {
      prepare: async () => ({
        params: { id: (await post('/api/admin/prompts', { category: '风景', title: uniqueName('提示'), prompt: '雪山' })).id },
        body: { sort: 2 },
      }),
    },
    'DELETE /api/admin/prompts/[id]': {
      prepare: async () => ({ params: { id: (await post('/api/admin/prompts', { category: '风景', title: uniqueName('删'), prompt: '雪山' })).id } }),
    },
    'POST /api/admin/chat-models': {
      prepare: () => ({ body: { name: uniqueName('对话'), endpoint: chat.url, secret: chat.key, model: 'fake-chat', pricePerMessage: 0 } }),
    },
    'PATCH /api/admin/chat-models/[id]': { prepare: () => ({ params: { id: chatModel.id }, body: { sort: 3 } }) },
    'DELETE /api/admin/chat-models/[id]': {
      prepare: async () => ({
        params: {
          id: (await post('/api/admin/chat-models', { name: uniqueName('删'), endpoint: chat.url, secret: chat.key, model: 'x', pricePerMessage: 0 })).id,
        },
      }),
    },
    'POST /api/admin/chat-models/[id]/test': { prepare: () => ({ params: { id: chatModel.id } }) },
    // The console: the wall (U's work is published by the user route above).
    'POST /api/admin/wall/[id]/approve': {
      prepare: async () => {
        uWork = (await post(`/api/tasks/${uTask}/publish`, { index: 0 }, uAuth)).wallId
        return { params: { id: uWork } }
      },
    },
    'PATCH /api/admin/wall/[id]': { prepare: () => ({ params: { id: uWork }, body: { sort: 5 } }) },
    'POST /api/admin/tasks/recommend/[id]': { sets: ['featured', 'isRecommended'], prepare: () => ({ params: { id: uTask } }) },
    'POST /api/admin/tasks/un_recommend/[id]': { prepare: () => ({ params: { id: uTask } }) },
    'POST /api/admin/wall/[id]/hide': { prepare: () => ({ params: { id: uWork } }) },
    'POST /api/admin/showcase': { prepare: () => ({ body: { title: uniqueName('合集'), workIds: [wWork] } }) },
    'PATCH /api/admin/showcase/[id]': {
      prepare: async () => ({
        params: { id: (await post('/api/admin/showcase', { title: uniqueName('合集') })).id },
        body: { title: '改名', workIds: [wWork] },
      }),
    },
    'DELETE /api/admin/showcase/[id]': { prepare: async () => ({ params: { id: (await post('/api/admin/showcase', { title: uniqueName('删') })).id } }) },
    // The console: video material.
    'POST /api/admin/videos': {
      accepts: ['price'],
      prepare: async () => ({
        multipart: { file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await mp4Clip() }, title: uniqueName('素材'), kind: 'free', published: 'false' },
      }),
    },
    'PATCH /api/admin/videos/[id]': { accepts: ['price'], prepare: () => ({ params: { id: videoId }, body: { description: '改过' } }) },
    'DELETE /api/admin/videos/[id]': { prepare: async () => ({ params: { id: await video() } }) },
    'POST /api/admin/videos/uploads': { prepare: () => ({ body: { size: 16, name: 'clip.mp4' } }) },
    'PUT /api/admin/videos/uploads/[id]/chunks/[index]': {
      prepare: async () => ({
        params: { id: (await post('/api/admin/videos/uploads', { size: 16, name: 'clip.mp4' })).id, index: 0 },
        raw: Buffer.alloc(16, 7),
      }),
    },
    // An API path no route serves.
    ...Object.fromEntries(METHODS.map((m) => [`${m} /api/[...unknown]`, { refusal: [404], prepare: () => ({ params: { '...unknown': `${MARK}-nowhere` } }) }])),
  }

  // The table and the disk agree: a new write route fails here until it has its entry.
  const endpoints = await writeEndpoints()
  const onDisk = endpoints.map((e) => e.key)
  expect(
    onDisk.filter((k) => !(k in ROUTES)),
    'write routes without an entry in ROUTES',
  ).toEqual([])
  expect(
    Object.keys(ROUTES).filter((k) => !onDisk.includes(k)),
    'entries of ROUTES with no route on disk',
  ).toEqual([])

  const tokenFor = { public: null, user: u.token, console: manager.token, admin: adminToken } as Record<string, string | null>
  const extra = extraFields(bystander.id)
  const before = await scan(bystander.id)
  // Flags may rightly be on already (earlier specs recommend works, cancel tasks): for them only growth counts, below.
  expect(
    [...before.columns].filter(([at, c]) => c.hits > 0 && !FLAGS.includes(at.split('.')[1] ?? '')),
    'the database holds none of the values before the sweep',
  ).toEqual([])
  let previous = before
  const outcomes: string[] = []
  const wrong: string[] = []
  const tally = { ignored: 0, refused: 0, refusal: 0 }
  const byKey = new Map(endpoints.map((e) => [e.key, e]))

  for (const [key, entry] of Object.entries(ROUTES)) {
    const endpoint = present(byKey.get(key), key)
    const call = (await entry.prepare?.()) ?? {}
    const token = call.token !== undefined ? call.token : tokenFor[endpoint.access]
    expect(token !== undefined, `${key}: unknown access ${endpoint.access}`).toBeTruthy()
    const url = endpoint.route.replace(/\[([^\]]+)\]/g, (_, name: string) => encodeURIComponent(String(call.params?.[name] ?? `${MARK}-missing`)))
    const sent = Object.fromEntries(Object.entries(extra).filter(([k]) => !entry.accepts?.includes(k)))
    const send = (withExtras: boolean) => {
      const headers = { ...bearer(token), 'Idempotency-Key': crypto.randomUUID() }
      const options = { method: endpoint.method, headers, maxRedirects: 0, timeout: 60_000 }
      if (call.raw) return request.fetch(url, { ...options, data: call.raw })
      if (call.multipart) {
        const fields = withExtras ? Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, String(v)])) : {}
        return request.fetch(url, { ...options, multipart: { ...fields, ...call.multipart } })
      }
      const body = call.body ?? {}
      const data = withExtras ? (entry.inject ?? ((b, e) => ({ ...e, ...b })))(body, sent) : body
      return request.fetch(url, { ...options, data })
    }
    const answer = await send(true)
    const text = await answer.text()
    let outcome: string
    const strict = answer.status() === 400 && /^不支持的参数/.test(errMessageOf(text))
    if (answer.ok()) {
      tally.ignored++
      outcome = `${answer.status()}, ${call.raw ? 'raw body (nothing to add)' : 'extra fields ignored'}`
    } else if (strict) {
      // Refused: the valid body alone must pass, or the 400 was about the body, not the extra fields.
      const second = await send(false)
      tally.refused++
      outcome = `400 不支持的参数, then ${second.status()} without them`
      if (!second.ok() && !entry.refusal?.includes(second.status()))
        wrong.push(`${key}: the valid body alone got ${second.status()} ${(await second.text()).slice(0, 200)}`)
    } else if (entry.refusal?.includes(answer.status())) {
      tally.refusal++
      outcome = `${answer.status()}, the domain's refusal (${text.slice(0, 80)})`
    } else {
      outcome = `${answer.status()}`
      wrong.push(`${key}: ${answer.status()} ${text.slice(0, 200)}`)
    }
    const after = await scan(bystander.id)
    const logged = (at: string) => {
      const [t = '', c = ''] = at.split('.')
      return (entry.logs?.includes(t) ?? false) || (entry.sets?.includes(c) ?? false) || (entry.cancels === true && c === 'cancelRequested')
    }
    const grew = (field: 'hits' | 'bystander') =>
      [...after.columns].filter(([at, c]) => !logged(at) && c[field] > (previous.columns.get(at)?.[field] ?? 0)).map(([at]) => at)
    if (grew('hits').length) wrong.push(`${key}: values sent as extra fields were stored in ${grew('hits').join(', ')}`)
    if (grew('bystander').length) wrong.push(`${key}: the bystander's id now appears in ${grew('bystander').join(', ')}`)
    if (after.staff !== previous.staff) wrong.push(`${key}: the staff roles changed: ${previous.staff} → ${after.staff}`)
    const newlyCanceled = [...after.canceled].filter((r) => !previous.canceled.has(r))
    if (newlyCanceled.length && !entry.cancels) wrong.push(`${key}: cancelled ${newlyCanceled.join(', ')}`)
    previous = after
    outcomes.push(`${key} as ${call.token !== undefined ? 'its own caller' : endpoint.access}: ${outcome}`)
  }
  await request.patch(`/api/admin/models/${slow.id}`, { headers: admin, data: { enabled: false } })
  await putBack()
  putBack = undefined
  await chat.close()

  console.log(outcomes.join('\n'))
  figure('write endpoints found on disk (POST/PUT/PATCH/DELETE)', endpoints.length)
  figure('write endpoints: extra fields ignored / refused (400) / domain refusal', `${tally.ignored} / ${tally.refused} / ${tally.refusal}`)
  figure('extra fields sent per call', Object.keys(extra).length)
  figure('mass-assignment findings', wrong.length)
  expect(wrong).toEqual([])
})

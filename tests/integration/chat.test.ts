// /ai_chat's API against a fake OpenAI-compatible model that streams (tests/fakes/openai-chat.ts):
// answers stream and are stored, a failure before the first token refunds, a cut-off answer keeps
// what arrived, the chat membership pays instead of points, and conversations are private.
import { createParser } from 'eventsource-parser'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import * as chatModelRoute from '@/app/api/admin/chat-models/[id]/route'
import * as chatModelTestRoute from '@/app/api/admin/chat-models/[id]/test/route'
import * as chatModelsAdminRoute from '@/app/api/admin/chat-models/route'
import * as chatUsageRoute from '@/app/api/admin/chat-usage/route'
import * as conversationRoute from '@/app/api/chat/conversations/[id]/route'
import * as messagesRoute from '@/app/api/chat/conversations/[id]/messages/route'
import * as conversationsRoute from '@/app/api/chat/conversations/route'
import * as chatModelsRoute from '@/app/api/chat/models/route'
import { openChatSecret } from '@/lib/chat/chat-secret'
import { listChatModels, listConversations, listMessages } from '@/lib/chat/manage-conversations'
import { beijingDayStart, STALE_ANSWER_MS } from '@/lib/chat/chat-rules'
import { sweepChatAnswers } from '@/lib/chat/drop-answer'
import { ANSWERS_PER_USER, openAnswers, stopOpenAnswers } from '@/lib/chat/open-answers'
import { chatStreamLimits, sendMessage } from '@/lib/chat/send-message'
import { createUpload } from '@/lib/uploads/create-upload'
import { db } from '@/lib/db'
import { MAX_STORED, postMovement } from '@/lib/ledger/post-movement'
import { fakePng } from '../fakes/common'
import { startFakeChatStream, type FakeChatStream } from '../fakes/openai-chat'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure, rawCall } from '../helpers/sign-in'

let fake: FakeChatStream
let admin: { id: string; token: string }
let modelId: string

const PRICE = 3

beforeAll(async () => {
  fake = await startFakeChatStream()
  admin = await createUser({ role: 'ADMIN' })
  const created = await callRoute(chatModelsAdminRoute.POST, {
    token: admin.token,
    body: {
      name: 'DeepSeek',
      endpoint: fake.url,
      secret: fake.key,
      model: 'deepseek-chat',
      systemPrompt: '你是一个乐于助人的助手。',
      contextMessages: 6,
      pricePerMessage: PRICE,
      enabled: true,
      sort: 0,
    },
  })
  modelId = expectOk(created).id
})
afterAll(() => fake.close())
beforeEach(() => fake.set('normal'))

type Event = { event: string; data: any }

/** Sends a message and reads the whole answer: the events in order, or the JSON refusal. */
async function send(
  token: string,
  conversationId: string,
  body: Record<string, unknown>,
): Promise<{ status: number; events: Event[]; json?: any; headers: Headers }> {
  const res = await rawCall(messagesRoute.POST, { method: 'POST', token, params: { id: conversationId }, body })
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return { status: res.status, events: [], json: await res.json(), headers: res.headers }
  return { status: res.status, events: await eventsOf(res), headers: res.headers }
}

async function eventsOf(res: Response): Promise<Event[]> {
  const events: Event[] = []
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? 'message', data: JSON.parse(e.data) }) })
  parser.feed(await res.text())
  return events
}

async function conversationFor(token: string) {
  return expectOk(await callRoute(conversationsRoute.POST, { token, body: { modelId } })).id as string
}

const pointsOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const messagesOf = (conversationId: string) => db().chatMessage.findMany({ where: { conversationId }, orderBy: { createdAt: 'asc' } })
const chatLedger = async (userId: string) =>
  (await db().ledgerEntry.findMany({ where: { userId, kind: { in: ['CHAT_CHARGE', 'CHAT_REFUND'] } }, orderBy: { id: 'asc' } })).map((e) => [e.kind, e.amount])

describe('chat models in the console', () => {
  it('keeps the key write-only and sealed, and only an ADMIN may manage them', async () => {
    const list = expectOk(await callRoute(chatModelsAdminRoute.GET, { token: admin.token }))
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ name: 'DeepSeek', model: 'deepseek-chat', pricePerMessage: PRICE })
    expect(JSON.stringify(list)).not.toContain(fake.key)
    const row = await db().chatModel.findUniqueOrThrow({ where: { id: modelId } })
    expect(row.secretEnc).not.toContain(fake.key)
    expect(openChatSecret(row.secretEnc!)).toBe(fake.key)

    const manager = await createUser({ role: 'MANAGER' })
    expect(expectOk(await callRoute(chatModelsAdminRoute.GET, { token: manager.token }))).toHaveLength(1)
    expectFail(await callRoute(chatModelRoute.PATCH, { method: 'PATCH', token: manager.token, params: { id: modelId }, body: { pricePerMessage: 0 } }), 403)
    expectFail(await callRoute(chatModelTestRoute.POST, { method: 'POST', token: manager.token, params: { id: modelId } }), 403)
    expectFail(
      await callRoute(chatModelsAdminRoute.POST, { token: manager.token, body: { name: 'x', endpoint: fake.url, model: 'm', pricePerMessage: 1 } }),
      403,
    )
    const user = await createUser()
    expect(expectOk(await callRoute(chatModelsRoute.GET, { token: user.token }))).toEqual([
      { id: modelId, name: 'DeepSeek', pricePerMessage: PRICE, vision: false },
    ])
    expect(JSON.stringify(expectOk(await callRoute(chatModelsRoute.GET, { token: user.token })))).not.toContain(fake.url)
  })

  it('测试连接 streams a short answer from the model and reports it', async () => {
    const res = expectOk(await callRoute(chatModelTestRoute.POST, { method: 'POST', token: admin.token, params: { id: modelId } }))
    expect(res.ok).toBe(true)
    expect(res.message).toContain('连接成功')
    fake.set('429')
    const busy = expectOk(await callRoute(chatModelTestRoute.POST, { method: 'POST', token: admin.token, params: { id: modelId } }))
    expect(busy).toMatchObject({ ok: false, message: expect.stringContaining('繁忙') })
  })

  it('refuses a metadata endpoint and a bad body with clear messages', async () => {
    const bad = await callRoute(chatModelsAdminRoute.POST, {
      token: admin.token,
      body: { name: 'x', endpoint: 'http://169.254.169.254/v1', model: 'm', pricePerMessage: 1 },
    })
    expectFail(bad, 400, /元数据/)
    expectFail(
      await callRoute(chatModelsAdminRoute.POST, { token: admin.token, body: { name: '', endpoint: 'ftp://x', model: 'm', pricePerMessage: -1 } }),
      400,
    )
    const endpoint = (address: string) =>
      callRoute(chatModelsAdminRoute.POST, { token: admin.token, body: { name: 'x', endpoint: address, model: 'm', pricePerMessage: 1 } })
    expectFail(await endpoint('http://host:port'), 400, '接口地址格式不正确')
    expectFail(await endpoint('https://user:key@relay.example/v1'), 400, '接口地址不能包含用户名和密码，请把“用户名:密码”填在密钥里')
  })
})

describe('a message', () => {
  it('streams the answer piece by piece, stores both messages and charges the price once', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    const res = await send(user.token, id, { content: '你好' })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('no-cache')
    expect(res.headers.get('x-accel-buffering')).toBe('no')
    const deltas = res.events.filter((e) => e.event === 'delta')
    expect(deltas.length).toBeGreaterThan(3)
    const answer = '你说的是：你好。这是一个**测试回答**。'
    expect(deltas.map((e) => e.data.content).join('')).toBe(answer)
    const done = res.events.at(-1)!
    expect(done.event).toBe('done')
    expect(done.data).toMatchObject({ message: { role: 'ASSISTANT', content: answer, incomplete: false, points: PRICE }, points: 10 - PRICE })

    expect(await pointsOf(user.id)).toBe(10 - PRICE)
    const ledger = await db().ledgerEntry.findMany({ where: { userId: user.id, kind: { in: ['CHAT_CHARGE', 'CHAT_REFUND'] } } })
    expect(ledger).toMatchObject([{ kind: 'CHAT_CHARGE', amount: -PRICE, reference: `chat:${done.data.message.id}:charge` }])

    const listed = expectOk(await callRoute(messagesRoute.GET, { token: user.token, params: { id } }))
    expect(listed.list.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['USER', '你好'],
      ['ASSISTANT', answer],
    ])
    // The model got the key, the system prompt and the question, as a stream.
    const call = fake.calls.at(-1)!
    expect(call.headers.authorization).toBe(`Bearer ${fake.key}`)
    expect(call.body).toMatchObject({
      model: 'deepseek-chat',
      stream: true,
      messages: [
        { role: 'system', content: '你是一个乐于助人的助手。' },
        { role: 'user', content: '你好' },
      ],
    })
    // The first message names the conversation.
    const conversations = expectOk(await callRoute(conversationsRoute.GET, { token: user.token }))
    expect(conversations.list).toMatchObject([{ id, title: '你好' }])
  })

  it('an answer carrying U+0000 is stored without it and charged, not left for the sweep to refund', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    fake.set('nul')
    const res = await send(user.token, id, { content: '你好' })
    const answer = '你说的是：你好。这是一个**测试回答**。'
    expect(
      res.events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.content)
        .join(''),
    ).toBe(answer)
    expect(res.events.at(-1)).toMatchObject({ event: 'done', data: { message: { content: answer, incomplete: false }, points: 10 - PRICE } })
    await sweepChatAnswers(new Date(Date.now() + 60 * 60_000))
    expect((await messagesOf(id)).map((m) => m.content)).toEqual(['你好', answer])
    expect(await pointsOf(user.id)).toBe(10 - PRICE)
  })

  it('sends the earlier messages as context, and regenerating replaces the last exchange', async () => {
    const user = await createUser({ points: 30 })
    const id = await conversationFor(user.token)
    await send(user.token, id, { content: '第一句' })
    await send(user.token, id, { content: '第二句' })
    expect((fake.calls.at(-1)!.body as { messages: unknown[] }).messages).toHaveLength(4) // system, 第一句, its answer, 第二句
    const [, , second] = await messagesOf(id)
    const again = await send(user.token, id, { content: '第二句改过了', replaceFrom: second!.id })
    expect(again.events.at(-1)!.event).toBe('done')
    expect((await messagesOf(id)).map((m) => m.content)).toEqual([
      '第一句',
      '你说的是：第一句。这是一个**测试回答**。',
      '第二句改过了',
      '你说的是：第二句改过了。这是一个**测试回答**。',
    ])
    expect(await pointsOf(user.id)).toBe(30 - 3 * PRICE)
  })

  it('sends pictures to a model that reads them, as image parts; a model that does not refuses them', async () => {
    const user = await createUser({ points: 10 })
    const upload = await createUpload(user.id, await fakePng(7))
    const id = await conversationFor(user.token)
    const refused = await send(user.token, id, { content: '这是什么', images: [upload.id] })
    expect([refused.status, refused.json.errMessage]).toEqual([400, '该模型不支持图片输入，请换一个支持识图的模型'])

    const vision = expectOk(
      await callRoute(chatModelsAdminRoute.POST, {
        token: admin.token,
        body: { name: '识图', endpoint: fake.url, secret: fake.key, model: 'gpt-4o-mini', pricePerMessage: 1, vision: true },
      }),
    )
    expectOk(await callRoute(conversationRoute.PATCH, { method: 'PATCH', token: user.token, params: { id }, body: { modelId: vision.id } }))
    const someoneElses = await createUpload((await createUser()).id, await fakePng(8))
    const theirs = await send(user.token, id, { content: '这是什么', images: [someoneElses.id] })
    expect([theirs.status, theirs.json.errMessage]).toEqual([404, '图片不存在，请重新上传'])

    const res = await send(user.token, id, { content: '这是什么', images: [upload.id] })
    expect(res.events.at(-1)!.event).toBe('done')
    const question = (fake.calls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages.at(-1)!
    expect(question).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: '这是什么' },
        { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) } },
      ],
    })
    const listed = expectOk(await callRoute(messagesRoute.GET, { token: user.token, params: { id } }))
    expect(listed.list[0]).toMatchObject({ role: 'USER', images: [upload.url] })
    await callRoute(chatModelRoute.PATCH, { method: 'PATCH', token: admin.token, params: { id: vision.id }, body: { enabled: false } })
  })

  for (const behaviour of ['500', '429', 'cutoff-before', 'malformed'] as const) {
    it(`refunds when the model fails before the first token (${behaviour})`, async () => {
      const user = await createUser({ points: 10 })
      const id = await conversationFor(user.token)
      fake.set(behaviour)
      const res = await send(user.token, id, { content: '你好' })
      expect(res.events.filter((e) => e.event === 'delta')).toEqual([])
      const last = res.events.at(-1)!
      expect(last.event).toBe('error')
      expect(last.data.errMessage).toEqual(expect.any(String))
      expect(last.data.points).toBe(10)
      expect(await pointsOf(user.id)).toBe(10)
      const ledger = await db().ledgerEntry.findMany({ where: { userId: user.id, kind: { in: ['CHAT_CHARGE', 'CHAT_REFUND'] } }, orderBy: { id: 'asc' } })
      expect(ledger.map((e) => [e.kind, e.amount])).toEqual([
        ['CHAT_CHARGE', -PRICE],
        ['CHAT_REFUND', PRICE],
      ])
      expect(ledger[1]!.reference).toBe(ledger[0]!.reference.replace(':charge', ':refund'))
      // The question stays (to resend); no empty answer is stored.
      expect((await messagesOf(id)).map((m) => m.role)).toEqual(['USER'])
    })
  }

  it('keeps what arrived of a cut-off answer, marked incomplete, and charges for it', async () => {
    for (const behaviour of ['cutoff', 'malformed-later'] as const) {
      const user = await createUser({ points: 10 })
      const id = await conversationFor(user.token)
      fake.set(behaviour)
      const res = await send(user.token, id, { content: '你好' })
      const arrived = res.events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.content)
        .join('')
      expect(arrived.length).toBeGreaterThan(0)
      const done = res.events.at(-1)!
      expect(done).toMatchObject({ event: 'done', data: { message: { content: arrived, incomplete: true }, points: 10 - PRICE } })
      const stored = await messagesOf(id)
      expect(stored.at(-1)).toMatchObject({ role: 'ASSISTANT', content: arrived, incomplete: true, points: PRICE })
      expect(await pointsOf(user.id)).toBe(10 - PRICE)
    }
  })
})

describe('stopping, thinking and deleting', () => {
  it('an answer stopped before the response starts is refunded and not stored, though nobody reads the stream', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    const before = fake.calls.length
    // The client left while prepare ran: the request's signal is already aborted.
    await sendMessage(user.id, id, { content: '你好' }, AbortSignal.abort())
    await vi.waitFor(async () => expect(await db().chatMessage.count({ where: { conversationId: id, role: 'ASSISTANT', content: '' } })).toBe(0), {
      timeout: 5000,
    })
    expect((await messagesOf(id)).map((m) => m.role)).toEqual(['USER'])
    expect(await pointsOf(user.id)).toBe(10)
    expect(await chatLedger(user.id)).toEqual([
      ['CHAT_CHARGE', -PRICE],
      ['CHAT_REFUND', PRICE],
    ])
    expect(fake.calls.length).toBe(before)
  })

  it(`one user may have ${ANSWERS_PER_USER} answers under way at once: one more is refused with 429 and charged nothing, until one ends`, async () => {
    const [user, other] = [await createUser({ points: 100 }), await createUser({ points: 100 })]
    const conversations = await Promise.all(Array.from({ length: ANSWERS_PER_USER + 1 }, () => conversationFor(user.token)))
    fake.set('hold')
    const held = []
    for (const id of conversations.slice(0, ANSWERS_PER_USER)) held.push(await sendMessage(user.id, id, { content: '你好' }))
    const extra = conversations.at(-1)!
    const refused = await send(user.token, extra, { content: '你好' })
    expect(refused).toMatchObject({ status: 429, json: { errMessage: `你已有 ${ANSWERS_PER_USER} 个回答正在生成，请等它们完成后再发送` } })
    expect(await messagesOf(extra)).toEqual([])
    expect(await pointsOf(user.id)).toBe(100 - ANSWERS_PER_USER * PRICE)
    // Another user is not held back.
    const others = await sendMessage(other.id, await conversationFor(other.token), { content: '你好' })
    expect(others.status).toBe(200)
    // One answer ends (its reader went away): the next send goes ahead.
    await held[0]!.body!.cancel()
    fake.set('normal')
    await vi.waitFor(async () => expect((await send(user.token, extra, { content: '你好' })).status).toBe(200))
    await stopOpenAnswers()
    expect(openAnswers().size).toBe(0)
  })

  it('a server shutting down stops its answers: what arrived is kept, one with nothing yet is refunded, both streams end', async () => {
    const [a, b] = [await createUser({ points: 10 }), await createUser({ points: 10 })]
    const [idA, idB] = [await conversationFor(a.token), await conversationFor(b.token)]
    fake.set('slow')
    const resA = await sendMessage(a.id, idA, { content: '你好' })
    const reader = resA.body!.getReader()
    let textA = new TextDecoder().decode((await reader.read()).value)
    expect(textA).toContain('event: delta')
    fake.set('hold')
    const before = fake.calls.length
    const resB = await sendMessage(b.id, idB, { content: '你好' })
    await vi.waitFor(() => expect(fake.calls.length).toBe(before + 1))
    expect(openAnswers().size).toBe(2)

    await stopOpenAnswers()
    // Both are stored by the time the stop settles, before anything reads the rest of the streams.
    const [, answerA] = await messagesOf(idA)
    expect(answerA).toMatchObject({ incomplete: true })
    expect('你说的是：你好。这是一个**测试回答**。'.startsWith(answerA!.content)).toBe(true)
    expect(answerA!.content.length).toBeGreaterThan(0)
    expect((await messagesOf(idB)).map((m) => m.role)).toEqual(['USER'])
    expect(openAnswers().size).toBe(0)

    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) textA += new TextDecoder().decode(chunk.value)
    const eventsA: Event[] = []
    createParser({ onEvent: (e) => eventsA.push({ event: e.event ?? 'message', data: JSON.parse(e.data) }) }).feed(textA)
    expect(eventsA.at(-1)).toMatchObject({ event: 'done', data: { message: { content: answerA!.content, incomplete: true }, points: 10 - PRICE } })
    expect((await eventsOf(resB)).at(-1)).toEqual({
      event: 'error',
      data: { errMessage: '服务器正在重启，回答已中断，请稍后重试', points: 10, refunded: PRICE },
    })
    expect([await pointsOf(a.id), await pointsOf(b.id)]).toEqual([10 - PRICE, 10])
  })

  it('a model thinking past the idle limit is not cut off: reasoning and keep-alive comments show it is alive', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    fake.set('reasoning') // 6 reasoning chunks, then 6 keep-alives, 150 ms apart: 1.8 s before the first text
    const saved = chatStreamLimits.idleMs
    chatStreamLimits.idleMs = 500
    try {
      const res = await send(user.token, id, { content: '你好' })
      expect(res.events.at(-1)).toMatchObject({
        event: 'done',
        data: { message: { content: '你说的是：你好。这是一个**测试回答**。', incomplete: false }, points: 10 - PRICE },
      })
    } finally {
      chatStreamLimits.idleMs = saved
    }
  })

  it('refuses to delete a conversation or replace its messages while an answer is being generated', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    fake.set('hold')
    const client = new AbortController()
    const res = await sendMessage(user.id, id, { content: '你好' }, client.signal)
    const [question] = await messagesOf(id)
    const busy = '回答生成中，请稍后再试'
    expectFail(await callRoute(conversationRoute.DELETE, { method: 'DELETE', token: user.token, params: { id } }), 409, busy)
    const replaced = await send(user.token, id, { content: '改过了', replaceFrom: question!.id })
    expect([replaced.status, replaced.json?.errMessage]).toEqual([409, busy])
    expect((await messagesOf(id)).map((m) => m.role)).toEqual(['USER', 'ASSISTANT'])

    client.abort()
    expect((await eventsOf(res)).at(-1)).toMatchObject({ event: 'error', data: { points: 10 } })
    expectOk(await callRoute(conversationRoute.DELETE, { method: 'DELETE', token: user.token, params: { id } }))
    expect(await pointsOf(user.id)).toBe(10)
    expect(await chatLedger(user.id)).toEqual([
      ['CHAT_CHARGE', -PRICE],
      ['CHAT_REFUND', PRICE],
    ])
  })
})

describe('paying', () => {
  it('refuses without enough points as a JSON 402 (积分不足) before anything is stored or sent', async () => {
    const user = await createUser({ points: PRICE - 1 })
    const id = await conversationFor(user.token)
    const before = fake.calls.length
    const res = await send(user.token, id, { content: '你好' })
    expect(res.status).toBe(402)
    expect(res.json).toMatchObject({ success: false, errMessage: expect.stringMatching(/^积分不足/) })
    expect(await messagesOf(id)).toEqual([])
    expect(fake.calls.length).toBe(before)
  })

  it('an unlimited chat membership pays instead of points', async () => {
    const user = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话月卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: null },
    })
    const id = await conversationFor(user.token)
    for (const content of ['一', '二']) {
      const res = await send(user.token, id, { content })
      expect(res.events.at(-1)).toMatchObject({ event: 'done', data: { message: { points: 0 }, points: 0 } })
    }
    expect((await messagesOf(id)).filter((m) => m.role === 'ASSISTANT').map((m) => m.paidBy)).toEqual(['MEMBERSHIP', 'MEMBERSHIP'])
  })

  it('a daily allowance pays for that many answers a day, then points do; an expired membership pays nothing', async () => {
    const user = await createUser({ points: PRICE })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话体验卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: 1 },
    })
    const id = await conversationFor(user.token)
    expect((await send(user.token, id, { content: '一' })).events.at(-1)!.data.points).toBe(PRICE)
    expect((await send(user.token, id, { content: '二' })).events.at(-1)!.data.points).toBe(0)
    expect((await send(user.token, id, { content: '三' })).status).toBe(402)
    expect((await messagesOf(id)).filter((m) => m.role === 'ASSISTANT').map((m) => m.paidBy)).toEqual(['MEMBERSHIP', 'POINTS'])

    const lapsed = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: lapsed.id, kind: 'CHAT', planName: '对话月卡', expiresAt: new Date(Date.now() - 1000), dailyMessages: null },
    })
    expect((await send(lapsed.token, await conversationFor(lapsed.token), { content: '一' })).status).toBe(402)
  })

  /** A member with 1 answer a day and no points, who has used it in a conversation. */
  async function memberWhoUsedTheDay() {
    const user = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话体验卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: 1 },
    })
    const id = await conversationFor(user.token)
    const paid = await send(user.token, id, { content: '一' })
    expect(paid.events.at(-1)).toMatchObject({ event: 'done', data: { message: { points: 0 }, points: 0 } })
    const [question, answer] = await messagesOf(id)
    expect(answer!.paidBy).toBe('MEMBERSHIP')
    return { user, id, question: question!, answer: answer! }
  }
  const outOfPoints = [402, expect.stringMatching(/^积分不足/)]

  it("regenerating does not give the day's allowance back", async () => {
    const { user, id, question, answer } = await memberWhoUsedTheDay()
    const regenerated = await send(user.token, id, { content: '一', replaceFrom: question.id })
    expect([regenerated.status, regenerated.json?.errMessage]).toEqual(outOfPoints)
    expect((await messagesOf(id)).map((m) => m.id)).toEqual([question.id, answer.id])
    expect(await db().chatAllowanceDay.findMany({ where: { userId: user.id }, select: { day: true, used: true } })).toEqual([
      { day: beijingDayStart(), used: 1 },
    ])
  })

  it("deleting the conversation does not give the day's allowance back", async () => {
    const { user, id } = await memberWhoUsedTheDay()
    expectOk(await callRoute(conversationRoute.DELETE, { method: 'DELETE', token: user.token, params: { id } }))
    const elsewhere = await send(user.token, await conversationFor(user.token), { content: '二' })
    expect([elsewhere.status, elsewhere.json?.errMessage]).toEqual(outOfPoints)
    expect(await chatLedger(user.id)).toEqual([])
  })

  it('an answer that failed does not use the allowance', async () => {
    const user = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话体验卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: 1 },
    })
    const id = await conversationFor(user.token)
    fake.set('500')
    expect((await send(user.token, id, { content: '一' })).events.at(-1)).toMatchObject({ event: 'error', data: { points: 0 } })
    fake.set('normal')
    expect((await send(user.token, id, { content: '二' })).events.at(-1)).toMatchObject({ event: 'done', data: { message: { points: 0 } } })
    expect((await messagesOf(id)).map((m) => [m.role, m.paidBy])).toEqual([
      ['USER', 'NONE'],
      ['USER', 'NONE'],
      ['ASSISTANT', 'MEMBERSHIP'],
    ])
  })

  it('two tabs cannot both take the last message of the allowance', async () => {
    const user = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话体验卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: 1 },
    })
    const [a, b] = [await conversationFor(user.token), await conversationFor(user.token)]
    const results = await Promise.all([send(user.token, a, { content: '一' }), send(user.token, b, { content: '二' })])
    expect(results.map((r) => r.status).sort()).toEqual([200, 402])
  })

  it('a replacing send and a plain one in the same conversation take their locks in one order', async () => {
    const user = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话月卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: 10 },
    })
    const id = await conversationFor(user.token)
    expect((await send(user.token, id, { content: '一' })).status).toBe(200)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // What a replacing send does: the conversation, exclusively, then the day's allowance row.
    const replacing = db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "ChatConversation" WHERE "id" = ${id} FOR UPDATE`
      await held
      await tx.$executeRaw`UPDATE "ChatAllowanceDay" SET "used" = "used" WHERE "userId" = ${user.id}`
    })
    const plain = send(user.token, id, { content: '二' })
    await new Promise((r) => setTimeout(r, 300))
    release()
    await replacing
    expect((await plain).events.at(-1)).toMatchObject({ event: 'done' })
  })

  it('usage per model and per user is visible in the console', async () => {
    const usage = expectOk(await callRoute(chatUsageRoute.GET, { token: admin.token, query: { days: 7 } }))
    expect(usage.models).toEqual([
      { name: 'DeepSeek', messages: expect.any(Number), points: expect.any(Number) },
      { name: '识图', messages: 1, points: 1 },
    ])
    expect(usage.models[0].messages).toBeGreaterThan(5)
    expect(usage.users.length).toBeGreaterThan(3)
  })

  it("a free model's answers do not use a member's daily messages", async () => {
    const free = expectOk(
      await callRoute(chatModelsAdminRoute.POST, {
        token: admin.token,
        body: { name: '免费模型', endpoint: fake.url, secret: fake.key, model: 'deepseek-chat', pricePerMessage: 0, enabled: true, sort: 1 },
      }),
    ).id
    const user = await createUser({ points: 0 })
    await db().membership.create({
      data: { userId: user.id, kind: 'CHAT', planName: '对话体验卡', expiresAt: new Date(Date.now() + 86_400_000), dailyMessages: 1 },
    })
    const freeChat = expectOk(await callRoute(conversationsRoute.POST, { token: user.token, body: { modelId: free } })).id as string
    for (const content of ['一', '二']) expect((await send(user.token, freeChat, { content })).events.at(-1)!.event).toBe('done')
    expect((await messagesOf(freeChat)).filter((m) => m.role === 'ASSISTANT').map((m) => m.paidBy)).toEqual(['NONE', 'NONE'])
    // The day's one message is still there for the priced model.
    const paid = await conversationFor(user.token)
    expect((await send(user.token, paid, { content: '三' })).events.at(-1)).toMatchObject({ event: 'done', data: { message: { points: 0 }, points: 0 } })
    expect((await messagesOf(paid)).find((m) => m.role === 'ASSISTANT')!.paidBy).toBe('MEMBERSHIP')
    expectOk(await callRoute(chatModelRoute.PATCH, { method: 'PATCH', token: admin.token, params: { id: free }, body: { enabled: false } }))
  })
})

describe('refusals and privacy', () => {
  it('refuses a banned word as a JSON 400 before anything is charged or sent upstream', async () => {
    await configure(admin.token, { BANNED_WORDS: '违禁词甲\n违禁词乙' })
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    const before = fake.calls.length
    const res = await send(user.token, id, { content: '请说说违禁词乙' })
    expect(res.status).toBe(400)
    expect(res.json.errMessage).toBe('消息包含违禁词“违禁词乙”，请修改后再发送')
    expect([fake.calls.length, await pointsOf(user.id), (await messagesOf(id)).length]).toEqual([before, 10, 0])
    await configure(admin.token, { BANNED_WORDS: '' })
  })

  it("another user's conversation is a 404 for every call", async () => {
    const owner = await createUser({ points: 10 })
    const other = await createUser({ points: 10 })
    const id = await conversationFor(owner.token)
    await send(owner.token, id, { content: '私密' })
    const notFound = '对话不存在'
    expectFail(await callRoute(messagesRoute.GET, { token: other.token, params: { id } }), 404, notFound)
    expectFail(await callRoute(conversationRoute.GET, { token: other.token, params: { id } }), 404, notFound)
    expect((await send(other.token, id, { content: '偷看' })).json).toMatchObject({ success: false, errMessage: notFound })
    expectFail(await callRoute(conversationRoute.PATCH, { method: 'PATCH', token: other.token, params: { id }, body: { title: '我的' } }), 404, notFound)
    expectFail(await callRoute(conversationRoute.DELETE, { method: 'DELETE', token: other.token, params: { id } }), 404, notFound)
    expect(expectOk(await callRoute(conversationsRoute.GET, { token: other.token })).list).toEqual([])
    expect((await messagesOf(id)).length).toBe(2)
    expect(await pointsOf(other.id)).toBe(10)
  })

  it('renames, searches, switches the model and deletes a conversation', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    await send(user.token, id, { content: '关于猫的问题' })
    expectOk(await callRoute(conversationRoute.PATCH, { method: 'PATCH', token: user.token, params: { id }, body: { title: '猫' } }))
    expect(expectOk(await callRoute(conversationRoute.GET, { token: user.token, params: { id } }))).toEqual(
      expectOk(await callRoute(conversationsRoute.GET, { token: user.token })).list[0],
    )
    expect(expectOk(await callRoute(conversationsRoute.GET, { token: user.token, query: { q: '猫' } })).list).toMatchObject([{ id, title: '猫' }])
    expect(expectOk(await callRoute(conversationsRoute.GET, { token: user.token, query: { q: '测试回答' } })).total).toBe(1)
    expect(expectOk(await callRoute(conversationsRoute.GET, { token: user.token, query: { q: '狗' } })).total).toBe(0)
    const off = expectOk(
      await callRoute(chatModelsAdminRoute.POST, {
        token: admin.token,
        body: { name: '停用的', endpoint: fake.url, model: 'm', pricePerMessage: 1, enabled: false },
      }),
    )
    expectFail(await callRoute(conversationRoute.PATCH, { method: 'PATCH', token: user.token, params: { id }, body: { modelId: off.id } }), 400)
    expectFail(await callRoute(chatModelRoute.DELETE, { method: 'DELETE', token: admin.token, params: { id: modelId } }), 409)
    expectOk(await callRoute(chatModelRoute.DELETE, { method: 'DELETE', token: admin.token, params: { id: off.id } }))
    expectOk(await callRoute(conversationRoute.DELETE, { method: 'DELETE', token: user.token, params: { id } }))
    expect(await messagesOf(id)).toEqual([])
  })
})

describe('long answers and the worker', () => {
  /** Reads the stream until its first `delta`; then the rest. */
  async function readInTwo(res: Response) {
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('event: delta')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`stream ended before a delta: ${text}`)
      text += decoder.decode(value, { stream: true })
    }
    return {
      async rest(): Promise<Event[]> {
        for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true })
        return eventsOf(new Response(text))
      },
    }
  }

  it('the sweeper leaves an answer alone that has streamed longer than 10 minutes', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    fake.set('slow')
    const stream = await readInTwo(await sendMessage(user.id, id, { content: '你好' }))
    await sweepChatAnswers(new Date(Date.now() + 10 * 60_000 + 5000))
    const events = await stream.rest()
    const answer = '你说的是：你好。这是一个**测试回答**。'
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { message: { content: answer, incomplete: false }, points: 10 - PRICE } })
    expect((await messagesOf(id)).map((m) => m.content)).toEqual(['你好', answer])
    expect(await chatLedger(user.id)).toEqual([['CHAT_CHARGE', -PRICE]])
  })

  it('an answer ends at the total time limit, kept as cut off like a stopped one', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    fake.set('slow') // a piece every 150 ms
    const saved = chatStreamLimits.totalMs
    chatStreamLimits.totalMs = 500
    try {
      const res = await send(user.token, id, { content: '你好' })
      const done = res.events.at(-1)!
      expect(done).toMatchObject({ event: 'done', data: { message: { incomplete: true }, points: 10 - PRICE } })
      expect(done.data.message.content.length).toBeGreaterThan(0)
      expect(done.data.message.content).not.toBe('你说的是：你好。这是一个**测试回答**。')
      expect((await messagesOf(id)).at(-1)).toMatchObject({ content: done.data.message.content, incomplete: true })
    } finally {
      chatStreamLimits.totalMs = saved
    }
  })

  /** An answer row without text, as a stream leaves it until its end, made `minutesAgo`. */
  const emptyAnswer = (userId: string, conversationId: string, minutesAgo: number) =>
    db().chatMessage.create({
      data: {
        conversationId,
        userId,
        modelId,
        role: 'ASSISTANT',
        content: '',
        incomplete: true,
        paidBy: 'POINTS',
        points: PRICE,
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
      },
    })

  it('refunds an answer a crash left without text, once, and leaves answers under way alone', async () => {
    const user = await createUser({ points: 10 })
    const id = await conversationFor(user.token)
    const answer = async (minutesAgo: number) => {
      const row = await emptyAnswer(user.id, id, minutesAgo)
      await db().$transaction((tx) =>
        postMovement(tx, { userId: user.id, account: 'POINTS', kind: 'CHAT_CHARGE', amount: -PRICE, reference: `chat:${row.id}:charge` }),
      )
      return row.id
    }
    const crashed = await answer(STALE_ANSWER_MS / 60_000 + 0.1)
    const underWay = await answer(11) // past the old 10 minutes, within the 10 an answer may stream plus the margin
    expect(await pointsOf(user.id)).toBe(10 - 2 * PRICE)
    expect(await sweepChatAnswers()).toBe(1)
    expect(await sweepChatAnswers()).toBe(0)
    expect(await pointsOf(user.id)).toBe(10 - PRICE)
    expect((await messagesOf(id)).map((m) => m.id)).toEqual([underWay])
    expect(await db().ledgerEntry.count({ where: { reference: `chat:${crashed}:refund` } })).toBe(1)
  })

  it('goes on past an answer whose refund is refused, and leaves that one as it was', async () => {
    const stale = (userId: string, conversationId: string, minutesPastStale: number) =>
      emptyAnswer(userId, conversationId, STALE_ANSWER_MS / 60_000 + minutesPastStale)
    const full = await createUser({ points: MAX_STORED }) // a refund would overflow the column: refused
    const blocked = await stale(full.id, await conversationFor(full.token), 2)
    const user = await createUser({ points: 10 })
    const refunded = await stale(user.id, await conversationFor(user.token), 1)
    try {
      expect(await sweepChatAnswers()).toBe(1)
      expect(await pointsOf(user.id)).toBe(10 + PRICE)
      expect(await db().chatMessage.count({ where: { id: refunded.id } })).toBe(0)
      expect(await pointsOf(full.id)).toBe(MAX_STORED)
      expect(await db().chatMessage.count({ where: { id: blocked.id } })).toBe(1)
    } finally {
      await db().chatMessage.delete({ where: { id: blocked.id } })
    }
  })
})

describe('the lists, one statement each (lib/chat/manage-conversations.ts)', () => {
  const CONVERSATION = { id: true, title: true, modelId: true, createdAt: true, updatedAt: true } as const
  const MESSAGE = { id: true, role: true, content: true, images: true, incomplete: true, points: true, createdAt: true } as const
  const iso = <T extends { createdAt: Date }>(r: T) => ({ ...r, createdAt: r.createdAt.toISOString() })

  /** The answers as the Prisma queries they replaced gave them. */
  async function previousConversations(userId: string, q?: string) {
    const pattern = q ? q.replace(/[\\%_]/g, (c) => `\\${c}`) : undefined
    const rows = await db().chatConversation.findMany({
      where: {
        userId,
        ...(pattern && {
          OR: [
            { title: { contains: pattern, mode: 'insensitive' as const } },
            { messages: { some: { content: { contains: pattern, mode: 'insensitive' as const } } } },
          ],
        }),
      },
      select: CONVERSATION,
      orderBy: { updatedAt: 'desc' },
      take: 200,
    })
    return { list: rows.map((c) => ({ ...iso(c), updatedAt: c.updatedAt.toISOString() })), total: rows.length }
  }
  async function previousMessages(conversationId: string) {
    const rows = await db().chatMessage.findMany({
      where: { conversationId, NOT: { role: 'ASSISTANT', content: '' } },
      select: MESSAGE,
      orderBy: { createdAt: 'asc' },
    })
    return { list: rows.map(iso), total: rows.length }
  }

  it('answer what the Prisma queries they replaced answered, key for key', async () => {
    const user = await createUser()
    const other = await createUser()
    const start = Date.UTC(2026, 0, 1, 3, 4, 5, 678)
    const ids: string[] = []
    const titles = ['猫的 "问题" \\ <b>', '100% 狗', 'a_b', 'Cat', '空的']
    for (const [i, title] of titles.entries()) {
      const c = await db().chatConversation.create({
        data: { userId: user.id, modelId, title, createdAt: new Date(start + i), updatedAt: new Date(start + 1000 * (i % 3) + i) },
      })
      ids.push(c.id)
      if (title === '空的') continue
      const message = (n: number, data: { role: 'USER' | 'ASSISTANT'; content: string; images?: string[]; incomplete?: boolean; points?: number }) =>
        db().chatMessage.create({ data: { conversationId: c.id, userId: user.id, modelId, createdAt: new Date(start + 10 * n + i * 100), ...data } })
      await message(1, { role: 'USER', content: `第 ${i} 个问题 🐱\n"引号"`, images: i % 2 ? ['/files/a.png', '/files/b "c".png'] : [] })
      await message(2, { role: 'ASSISTANT', content: `回答 ${i}：ＣＡＴ`, incomplete: i % 2 === 0, points: i })
      await message(3, { role: 'ASSISTANT', content: '' })
    }
    await db().chatConversation.create({ data: { userId: other.id, modelId, title: '别人的猫' } })

    for (const q of [undefined, '', '猫', 'cat', 'CAT', 'ｃａｔ', '%', '_', '\\', '100%', 'a_b', '问题', '"引号"', '狗', '没有']) {
      const before = await previousConversations(user.id, q)
      expect(JSON.stringify(await listConversations(user.id, q)), String(q)).toBe(JSON.stringify(before))
      expect(expectOk(await callRoute(conversationsRoute.GET, { token: user.token, query: q === undefined ? {} : { q } })), String(q)).toEqual(
        JSON.parse(JSON.stringify(before)),
      )
    }
    for (const id of ids) {
      const before = await previousMessages(id)
      expect(JSON.stringify(await listMessages(user.id, id))).toBe(JSON.stringify(before))
      expect(JSON.stringify(expectOk(await callRoute(messagesRoute.GET, { token: user.token, params: { id } })))).toBe(JSON.stringify(before))
      expectFail(await callRoute(messagesRoute.GET, { token: other.token, params: { id } }), 404, '对话不存在')
    }
    expect((await listMessages(user.id, ids.at(-1)!)).list).toEqual([])
    expectFail(await callRoute(messagesRoute.GET, { token: user.token, params: { id: 'no-such-conversation' } }), 404, '对话不存在')

    await db().chatModel.create({ data: { name: '看图 "模型"', endpoint: fake.url, model: 'm', pricePerMessage: 0, vision: true, sort: -1 } })
    const models = await db().chatModel.findMany({
      where: { enabled: true },
      select: { id: true, name: true, pricePerMessage: true, vision: true },
      orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
    })
    expect(JSON.stringify(await listChatModels())).toBe(JSON.stringify(models))
  })
})

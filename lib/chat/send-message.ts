import 'server-only'
import { db, type Tx } from '@/lib/db'
import { badRequest, notFound } from '@/lib/http/app-error'
import { postMovement } from '@/lib/ledger/post-movement'
import { activeMembership } from '@/lib/memberships/active-membership'
import { bannedWordIn } from '@/lib/site-config/banned-words'
import { readStoredFile } from '@/lib/storage/storage'
import type { ChatPayment } from '@/lib/generated/prisma/enums'
import { openChatSecret } from './chat-secret'
import { dropAnswer, refuseWhileAnswering } from './drop-answer'
import { ANSWER_TOTAL_MS, beijingDayStart } from './chat-rules'
import { CONVERSATION_NOT_FOUND, DEFAULT_TITLE, MESSAGE_SELECT, MODEL_UNAVAILABLE, toMessageView } from './manage-conversations'
import { openAnswers, takeAnswerSlot, type OpenAnswer } from './open-answers'
import { streamChat, UpstreamError, type UpstreamMessage } from './openai-chat'
import type { TSendMessage } from './schemas'

/**
 * Nothing at all from the upstream for `idleMs`: it is given up on. After `totalMs` the answer
 * ends as a stop does (the sweeper relies on it). An object so tests can shorten them.
 */
export const chatStreamLimits = { idleMs: 90_000, totalMs: ANSWER_TOTAL_MS }
const EMPTY_ANSWER = '模型没有返回内容，本条消息未扣费，请重试'

type Prepared = {
  userMessageId: string
  answerId: string
  paidBy: ChatPayment
  price: number
  upstream: { endpoint: string; key: string | null; model: string; messages: UpstreamMessage[] }
}

/**
 * How the answer created at `answeredAt` is paid: nothing for a free model (a member's daily
 * messages are kept for the others), else the chat membership while it lasts (unlimited, or up
 * to its daily messages), else the model's price in points. Runs inside the transaction
 * that books the charge. A membership answer is counted in its Beijing day's ChatAllowanceDay row,
 * which deleting messages does not undo; the upsert checks and counts in one statement under
 * that row's lock, so two sends cannot both take the last one.
 */
async function paymentFor(tx: Tx, userId: string, price: number, answeredAt: Date): Promise<ChatPayment> {
  if (price <= 0) return 'NONE'
  const membership = await activeMembership(userId, 'CHAT', tx)
  if (membership && (membership.dailyMessages ?? 1) > 0) {
    const counted = await tx.$queryRaw<unknown[]>`
      INSERT INTO "ChatAllowanceDay" ("day", "userId", "used") VALUES (${beijingDayStart(answeredAt)}::timestamp, ${userId}, 1)
      ON CONFLICT ("day", "userId") DO UPDATE SET "used" = "ChatAllowanceDay"."used" + 1
      WHERE ${membership.dailyMessages}::int IS NULL OR "ChatAllowanceDay"."used" < ${membership.dailyMessages}::int
      RETURNING 1`
    if (counted.length) return 'MEMBERSHIP'
  }
  return 'POINTS'
}

async function imagePart(userId: string, uploadIds: string[]): Promise<{ urls: string[]; dataUrls: string[] }> {
  if (!uploadIds.length) return { urls: [], dataUrls: [] }
  const rows = await db().uploadedImage.findMany({ where: { id: { in: uploadIds }, userId }, select: { id: true, url: true, storageKey: true } })
  // Another user's upload is answered like a missing one: 404, as task inputs are (submit-task.ts).
  if (rows.length !== new Set(uploadIds).size) throw notFound('图片不存在，请重新上传')
  const dataUrls = await Promise.all(
    rows.map(async (r) => {
      const bytes = await readStoredFile(r.storageKey)
      if (!bytes) throw badRequest('图片已失效，请重新上传')
      return `data:image/png;base64,${bytes.toString('base64')}`
    }),
  )
  return { urls: rows.map((r) => r.url), dataUrls }
}

/** Everything before the answer starts: checks, the stored question, the charge. A refusal here is an ordinary JSON error. */
async function prepare(userId: string, conversationId: string, input: TSendMessage): Promise<Prepared> {
  const conversation = await db().chatConversation.findFirst({
    where: { id: conversationId, userId },
    select: {
      id: true,
      title: true,
      model: {
        select: {
          id: true,
          enabled: true,
          endpoint: true,
          secretEnc: true,
          model: true,
          systemPrompt: true,
          contextMessages: true,
          pricePerMessage: true,
          vision: true,
        },
      },
    },
  })
  if (!conversation) throw notFound(CONVERSATION_NOT_FOUND)
  const { model } = conversation
  if (!model.enabled) throw badRequest(MODEL_UNAVAILABLE)
  const word = await bannedWordIn(input.content)
  if (word) throw badRequest(`消息包含违禁词“${word}”，请修改后再发送`)
  const uploadIds = input.images ?? []
  if (uploadIds.length && !model.vision) throw badRequest('该模型不支持图片输入，请换一个支持识图的模型')
  const images = await imagePart(userId, uploadIds)

  return db().$transaction(async (tx) => {
    let asked = new Date()
    // Every send locks the conversation first (a replacing one exclusively), before the
    // allowance row: taken in the other order, a replacing send and a plain one deadlock.
    if (!input.replaceFrom) await tx.$queryRaw`SELECT 1 FROM "ChatConversation" WHERE "id" = ${conversationId} FOR KEY SHARE`
    else {
      await refuseWhileAnswering(tx, conversationId)
      const from = await tx.chatMessage.findFirst({ where: { id: input.replaceFrom, conversationId, role: 'USER' }, select: { createdAt: true } })
      if (!from) throw notFound('要重新发送的消息不存在')
      await tx.chatMessage.deleteMany({ where: { conversationId, createdAt: { gte: from.createdAt } } })
    }
    const history = await tx.chatMessage.findMany({
      where: { conversationId },
      select: { role: true, content: true },
      orderBy: { createdAt: 'desc' },
      take: model.contextMessages,
    })
    const last = await tx.chatMessage.findFirst({ where: { conversationId }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } })
    if (last && last.createdAt >= asked) asked = new Date(last.createdAt.getTime() + 1)
    const paidBy = await paymentFor(tx, userId, model.pricePerMessage, new Date(asked.getTime() + 1))
    const price = paidBy === 'POINTS' ? model.pricePerMessage : 0
    const question = await tx.chatMessage.create({
      data: { conversationId, userId, modelId: model.id, role: 'USER', content: input.content, images: images.urls, createdAt: asked },
      select: { id: true },
    })
    const answer = await tx.chatMessage.create({
      data: {
        conversationId,
        userId,
        modelId: model.id,
        role: 'ASSISTANT',
        content: '',
        incomplete: true,
        paidBy,
        points: price,
        createdAt: new Date(asked.getTime() + 1),
      },
      select: { id: true },
    })
    if (price) await postMovement(tx, { userId, account: 'POINTS', kind: 'CHAT_CHARGE', amount: -price, reference: `chat:${answer.id}:charge` })
    const title = conversation.title === DEFAULT_TITLE && !history.length ? input.content.replace(/\s+/g, ' ').slice(0, 30) : undefined
    await tx.chatConversation.update({ where: { id: conversationId }, data: { updatedAt: new Date(), ...(title && { title }) } })

    const messages: UpstreamMessage[] = []
    if (model.systemPrompt.trim()) messages.push({ role: 'system', content: model.systemPrompt })
    for (const m of history.reverse()) if (m.content) messages.push({ role: m.role === 'USER' ? 'user' : 'assistant', content: m.content })
    messages.push({
      role: 'user',
      content: images.dataUrls.length
        ? [{ type: 'text', text: input.content }, ...images.dataUrls.map((url) => ({ type: 'image_url' as const, image_url: { url } }))]
        : input.content,
    })
    return {
      userMessageId: question.id,
      answerId: answer.id,
      paidBy,
      price,
      upstream: { endpoint: model.endpoint, key: model.secretEnc ? openChatSecret(model.secretEnc) : null, model: model.model, messages },
    }
  })
}

async function keepAnswer(userId: string, p: Prepared, content: string, incomplete: boolean) {
  const message = await db().chatMessage.update({ where: { id: p.answerId }, data: { content, incomplete }, select: MESSAGE_SELECT })
  const { points } = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { points: true } })
  return { message: toMessageView(message), points }
}

const SERVER_RESTARTING = '服务器正在重启，回答已中断，请稍后重试'

const encoder = new TextEncoder()
const sse = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'private, no-cache, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
}

/**
 * POST /api/chat/conversations/{id}/messages: checks and charges first (a refusal is a JSON
 * 4xx), then streams the answer as server-sent events (docs/PROTOCOLS.md §13): `delta` per
 * piece, then `done` with the stored message and the caller's points, or `error`. A stream
 * cut off after some text (upstream ended early, or the user stopped it) keeps that text,
 * marked incomplete; one that fails before any text refunds the charge.
 */
export async function sendMessage(userId: string, conversationId: string, input: TSendMessage, requestSignal?: AbortSignal): Promise<Response> {
  const releaseSlot = takeAnswerSlot(userId)
  let prepared: Prepared
  try {
    prepared = await prepare(userId, conversationId, input)
  } catch (error) {
    releaseSlot()
    throw error
  }
  const stop = new AbortController()
  const clientGone = () => stop.abort(new Error('client went away'))
  // A client that left while prepare ran: its signal is already aborted and will not fire again.
  if (requestSignal?.aborted) clientGone()
  else requestSignal?.addEventListener('abort', clientGone, { once: true })
  let idle: NodeJS.Timeout | undefined
  const resetIdle = () => {
    clearTimeout(idle)
    idle = setTimeout(() => stop.abort(new UpstreamError('模型接口长时间没有响应', 'idle timeout')), chatStreamLimits.idleMs)
  }
  let total: NodeJS.Timeout | undefined
  let ended!: () => void
  const stored = new Promise<void>((resolve) => (ended = resolve))
  const open: OpenAnswer = {
    stop: () => {
      stop.abort(new UpstreamError(SERVER_RESTARTING, 'server shutting down'))
      return stored
    },
  }
  openAnswers().add(open)

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        await answer(controller)
      } finally {
        openAnswers().delete(open)
        releaseSlot()
        ended()
      }
    },
    cancel: clientGone,
  })
  return new Response(body, { status: 200, headers: SSE_HEADERS })

  async function answer(controller: ReadableStreamDefaultController<Uint8Array>) {
    const send = (event: string, data: unknown) => {
      if (stop.signal.aborted && event === 'delta') return
      try {
        controller.enqueue(sse(event, data))
      } catch {
        // the client is gone; what arrived is still stored below
      }
    }
    let content = ''
    let failure: string | null = null
    resetIdle()
    total = setTimeout(() => stop.abort(new UpstreamError('回答时间过长，已停止', 'total time limit')), chatStreamLimits.totalMs)
    try {
      for await (const piece of streamChat({ ...prepared.upstream, signal: stop.signal, onData: resetIdle })) {
        content += piece
        send('delta', { content: piece })
      }
    } catch (error) {
      const reason = stop.signal.aborted ? stop.signal.reason : error
      failure = reason instanceof UpstreamError ? reason.userMessage : stop.signal.aborted ? '已停止' : '模型接口连接中断'
      if (!(stop.signal.aborted && !(reason instanceof UpstreamError)))
        console.warn(`[chat] answer ${prepared.answerId} failed: ${String((error as Error).message ?? error)}`)
    } finally {
      clearTimeout(idle)
      clearTimeout(total)
    }
    try {
      if (!content) {
        const points = await dropAnswer({ id: prepared.answerId, userId, points: prepared.price })
        send('error', { errMessage: failure ?? EMPTY_ANSWER, points, refunded: prepared.price })
      } else {
        send('done', await keepAnswer(userId, prepared, content, failure !== null))
      }
    } catch (error) {
      console.error(`[chat] storing answer ${prepared.answerId} failed`, error)
      send('error', { errMessage: '保存回答失败，请刷新后重试' })
    }
    try {
      controller.close()
    } catch {
      // already closed by the client going away
    }
  }
}

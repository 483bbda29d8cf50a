import 'server-only'
import { db, dbPool } from '@/lib/db'
import { isoText, jsonArrayText, jsonObject, jsonObjectOrNull } from '@/lib/db/json-rows'
import { escapeLike } from '@/lib/db/like'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, notFound } from '@/lib/http/app-error'
import { JsonList, jsonList } from '@/lib/http/json-list'
import { refuseWhileAnswering } from './drop-answer'
import type { ChatMessageView, ChatModelView, ConversationView, TConversationCreate, TConversationUpdate } from './schemas'

export const CONVERSATION_NOT_FOUND = '对话不存在'
export const MODEL_UNAVAILABLE = '该模型不存在或已停用，请换一个模型'
export const DEFAULT_TITLE = '新对话'

const CONVERSATION_SELECT = { id: true, title: true, modelId: true, createdAt: true, updatedAt: true } as const

const toView = (c: { id: string; title: string; modelId: string; createdAt: Date; updatedAt: Date }): ConversationView => ({
  ...c,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
})

/** The enabled chat models, as the picker shows them. */
export async function listChatModels(): Promise<ChatModelView[]> {
  return readRows<ChatModelView[]>(
    Prisma.sql`SELECT "id", "name", "pricePerMessage", "vision" FROM "ChatModel" WHERE "enabled" ORDER BY "sort" ASC, "createdAt" ASC`,
  )
}

async function assertModelEnabled(modelId: string): Promise<void> {
  const model = await db().chatModel.findUnique({ where: { id: modelId }, select: { enabled: true } })
  if (!model?.enabled) throw badRequest(MODEL_UNAVAILABLE)
}

/** The caller's own conversation, or 404: another user's is as absent as a missing one. */
export async function ownConversation(userId: string, id: string) {
  const row = await db().chatConversation.findFirst({ where: { id, userId }, select: CONVERSATION_SELECT })
  if (!row) throw notFound(CONVERSATION_NOT_FOUND)
  return row
}

/** One of the caller's conversations by id: the one a `?c=` link opens may be older than the list's newest 200. */
export async function getConversation(userId: string, id: string): Promise<ConversationView> {
  return toView(await ownConversation(userId, id))
}

export async function createConversation(userId: string, input: TConversationCreate): Promise<{ id: string }> {
  await assertModelEnabled(input.modelId)
  return db().chatConversation.create({ data: { userId, modelId: input.modelId, title: input.title || DEFAULT_TITLE }, select: { id: true } })
}

/**
 * Newest first; `q` searches titles and message text (ILIKE, as Prisma's insensitive
 * `contains`). One statement, each row written as JSON by PostgreSQL (lib/db/json-rows.ts).
 */
export async function listConversations(userId: string, q?: string): Promise<JsonList<ConversationView> & { total: number }> {
  const pattern = q ? `%${escapeLike(q)}%` : undefined
  const search = pattern
    ? Prisma.sql`AND (c."title" ILIKE ${pattern} OR EXISTS (SELECT 1 FROM "ChatMessage" m WHERE m."conversationId" = c."id" AND m."content" ILIKE ${pattern}))`
    : Prisma.empty
  const rows = await readRows<{ row: string }[]>(
    Prisma.sql`SELECT ${conversationRowJson}::text AS "row" FROM "ChatConversation" c WHERE c."userId" = ${userId} ${search} ORDER BY c."updatedAt" DESC LIMIT 200`,
    dbPool('generic'),
  )
  return jsonList<ConversationView>(
    rows.map((r) => r.row),
    { total: rows.length },
  )
}

/** Key by key in the order of CONVERSATION_SELECT (toView). */
const conversationRowJson = jsonObject<ConversationView>({
  id: Prisma.sql`c."id"`,
  title: Prisma.sql`c."title"`,
  modelId: Prisma.sql`c."modelId"`,
  createdAt: isoText(Prisma.sql`c."createdAt"`),
  updatedAt: isoText(Prisma.sql`c."updatedAt"`),
})

export async function updateConversation(userId: string, id: string, input: TConversationUpdate): Promise<ConversationView> {
  await ownConversation(userId, id)
  if (input.modelId) await assertModelEnabled(input.modelId)
  return toView(await db().chatConversation.update({ where: { id }, data: input, select: CONVERSATION_SELECT }))
}

export async function deleteConversation(userId: string, id: string): Promise<null> {
  await ownConversation(userId, id)
  await db().$transaction(async (tx) => {
    await refuseWhileAnswering(tx, id)
    await tx.chatConversation.deleteMany({ where: { id, userId } })
  })
  return null
}

export const toMessageView = (m: {
  id: string
  role: 'USER' | 'ASSISTANT'
  content: string
  images: string[]
  incomplete: boolean
  points: number
  createdAt: Date
}): ChatMessageView => ({ ...m, createdAt: m.createdAt.toISOString() })

export const MESSAGE_SELECT = { id: true, role: true, content: true, images: true, incomplete: true, points: true, createdAt: true } as const

/**
 * A conversation's messages, oldest first, in one statement with its owner's check: no row
 * is another user's (or a missing) conversation. The page comes as one JSON text, not a row
 * per message: the web process neither reads 40 rows nor joins their texts.
 */
export async function listMessages(userId: string, conversationId: string): Promise<JsonList<ChatMessageView> & { total: number }> {
  // An answer row without text is one still streaming (or one a crash cut off before its first piece): not shown.
  const [found] = await readRows<{ total: number; list: string }[]>(
    Prisma.sql`
    SELECT count(m."id")::int AS "total", ${jsonArrayText(messageRowJson, Prisma.sql`m."createdAt" ASC`)} AS "list"
    FROM (SELECT "id" FROM "ChatConversation" WHERE "id" = ${conversationId} AND "userId" = ${userId}) c
    LEFT JOIN LATERAL (
      SELECT * FROM "ChatMessage" WHERE "conversationId" = c."id" AND NOT ("role" = 'ASSISTANT' AND "content" = '')
    ) m ON true
    GROUP BY c."id"`,
    dbPool('generic'),
  )
  if (!found) throw notFound(CONVERSATION_NOT_FOUND)
  return Object.assign(new JsonList<ChatMessageView>(found.list), { total: found.total })
}

/** Key by key in the order of MESSAGE_SELECT (toMessageView); null for a conversation without messages. */
const messageRowJson = jsonObjectOrNull<ChatMessageView>(Prisma.sql`m."id" IS NOT NULL`, {
  id: Prisma.sql`m."id"`,
  role: Prisma.sql`m."role"`,
  content: Prisma.sql`m."content"`,
  images: Prisma.sql`m."images"`,
  incomplete: Prisma.sql`m."incomplete"`,
  points: Prisma.sql`m."points"`,
  createdAt: isoText(Prisma.sql`m."createdAt"`),
})

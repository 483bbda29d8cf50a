import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import { badRequest, notFound } from '@/lib/http/app-error'
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
  return db().chatModel.findMany({
    where: { enabled: true },
    select: { id: true, name: true, pricePerMessage: true, vision: true },
    orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
  })
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

export async function createConversation(userId: string, input: TConversationCreate): Promise<{ id: string }> {
  await assertModelEnabled(input.modelId)
  return db().chatConversation.create({ data: { userId, modelId: input.modelId, title: input.title || DEFAULT_TITLE }, select: { id: true } })
}

/** Newest first; `q` searches titles and message text. */
export async function listConversations(userId: string, q?: string): Promise<{ list: ConversationView[]; total: number }> {
  const pattern = q ? escapeLike(q) : undefined
  const where = {
    userId,
    ...(pattern && {
      OR: [
        { title: { contains: pattern, mode: 'insensitive' as const } },
        { messages: { some: { content: { contains: pattern, mode: 'insensitive' as const } } } },
      ],
    }),
  }
  const rows = await db().chatConversation.findMany({ where, select: CONVERSATION_SELECT, orderBy: { updatedAt: 'desc' }, take: 200 })
  return { list: rows.map(toView), total: rows.length }
}

export async function updateConversation(userId: string, id: string, input: TConversationUpdate): Promise<ConversationView> {
  await ownConversation(userId, id)
  if (input.modelId) await assertModelEnabled(input.modelId)
  return toView(await db().chatConversation.update({ where: { id }, data: input, select: CONVERSATION_SELECT }))
}

export async function deleteConversation(userId: string, id: string): Promise<null> {
  const { count } = await db().chatConversation.deleteMany({ where: { id, userId } })
  if (!count) throw notFound(CONVERSATION_NOT_FOUND)
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

export async function listMessages(userId: string, conversationId: string): Promise<{ list: ChatMessageView[]; total: number }> {
  await ownConversation(userId, conversationId)
  // An answer row without text is one still streaming (or one a crash cut off before its first piece): not shown.
  const rows = await db().chatMessage.findMany({
    where: { conversationId, NOT: { role: 'ASSISTANT', content: '' } },
    select: MESSAGE_SELECT,
    orderBy: { createdAt: 'asc' },
  })
  return { list: rows.map(toMessageView), total: rows.length }
}

// GET /api/chat/conversations?q=: the caller's conversations, newest first → data: {list, total}. POST {modelId, title?} → data.id.
import { createConversation, listConversations } from '@/lib/chat/manage-conversations'
import { ZConversationCreateSchema, ZConversationListQuerySchema } from '@/lib/chat/schemas'
import { route } from '@/lib/http/route'

export const GET = route({ access: 'user', query: ZConversationListQuerySchema }, ({ user, query }) => listConversations(user.id, query.q))

export const POST = route({ access: 'user', body: ZConversationCreateSchema }, ({ user, body }) => createConversation(user.id, body))

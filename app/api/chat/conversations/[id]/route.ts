// GET /api/chat/conversations/{id} → data: the conversation; PATCH {title?, modelId?} and DELETE; another user's conversation is a 404.
import { deleteConversation, getConversation, updateConversation } from '@/lib/chat/manage-conversations'
import { ZConversationUpdateSchema } from '@/lib/chat/schemas'
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'

export const GET = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => getConversation(user.id, params.id))

export const PATCH = route({ access: 'user', params: ZIdParamsSchema, body: ZConversationUpdateSchema }, ({ user, params, body }) =>
  updateConversation(user.id, params.id, body),
)

export const DELETE = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => deleteConversation(user.id, params.id))

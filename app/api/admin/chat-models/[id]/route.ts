// PATCH /api/admin/chat-models/{id} (key write-only) and DELETE (only a model no conversation uses); ADMIN, audited.
import { deleteChatModel, updateChatModel } from '@/lib/chat/manage-chat-models'
import { ZChatModelUpdateSchema } from '@/lib/chat/schemas'
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'

export const PATCH = route({ access: 'admin', params: ZIdParamsSchema, body: ZChatModelUpdateSchema }, ({ user, ip, params, body }) =>
  updateChatModel(user, ip, params.id, body),
)

export const DELETE = route({ access: 'admin', params: ZIdParamsSchema }, ({ user, ip, params }) => deleteChatModel(user, ip, params.id))

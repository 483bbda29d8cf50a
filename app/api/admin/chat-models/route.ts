// GET /api/admin/chat-models: every chat model, key masked. POST: creates one → data.id (ADMIN: endpoints and keys; audited).
import { createChatModel, listChatModelsForAdmin } from '@/lib/chat/manage-chat-models'
import { ZChatModelInputSchema } from '@/lib/chat/schemas'
import { route } from '@/lib/http/route'

export const GET = route({ access: 'admin' }, () => listChatModelsForAdmin())

export const POST = route({ access: 'admin', body: ZChatModelInputSchema }, ({ user, ip, body }) => createChatModel(user, ip, body))

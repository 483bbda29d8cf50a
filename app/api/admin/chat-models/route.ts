// GET /api/admin/chat-models: every chat model, key masked (the console). POST: creates one → data.id (ADMIN only: endpoints and keys; audited).
import { createChatModel, listChatModelsForAdmin } from '@/lib/chat/manage-chat-models'
import { ZChatModelInputSchema } from '@/lib/chat/schemas'
import { route } from '@/lib/http/route'

export const GET = route({ access: 'console' }, () => listChatModelsForAdmin())

export const POST = route({ access: 'admin', body: ZChatModelInputSchema }, ({ user, ip, body }) => createChatModel(user, ip, body))

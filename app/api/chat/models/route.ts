// GET /api/chat/models: the enabled chat models for the picker → data: [{id, name, pricePerMessage, vision}].
import { listChatModels } from '@/lib/chat/manage-conversations'
import { route } from '@/lib/http/route'

export const GET = route({ access: 'user' }, () => listChatModels())

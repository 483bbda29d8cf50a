// GET /api/chat/conversations/{id}/messages → data: {list, total}, oldest first.
// POST {content, images?, replaceFrom?} → a server-sent-event stream (delta, then done or error; docs/PROTOCOLS.md §13);
// refusals before the answer starts (积分不足, banned words, bad input) are JSON errors.
import { listMessages } from '@/lib/chat/manage-conversations'
import { ZSendMessageSchema } from '@/lib/chat/schemas'
import { sendMessage } from '@/lib/chat/send-message'
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'

export const dynamic = 'force-dynamic'

export const GET = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => listMessages(user.id, params.id))

export const POST = route({ access: 'user', params: ZIdParamsSchema, body: ZSendMessageSchema }, ({ req, user, params, body }) =>
  sendMessage(user.id, params.id, body, req.signal),
)

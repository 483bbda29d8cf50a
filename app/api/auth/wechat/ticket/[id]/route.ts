// GET /api/auth/wechat/ticket/{id} (header X-Ticket-Key: the pollKey its creation answered): the desktop's poll
// → status, and the token exactly once after the phone confirmed.
import { route } from '@/lib/http/route'
import { pollLoginTicket } from '@/lib/auth/wechat/login-ticket'
import { ZTicketParamsSchema } from '@/lib/auth/wechat/schemas'
import { TICKET_POLL_KEY_HEADER } from '@/lib/auth/wechat/ticket-poll'

export const GET = route({ access: 'public', params: ZTicketParamsSchema }, ({ req, params }) =>
  pollLoginTicket(params.id, req.headers.get(TICKET_POLL_KEY_HEADER)),
)

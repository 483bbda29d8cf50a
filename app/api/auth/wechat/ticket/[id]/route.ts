// GET /api/auth/wechat/ticket/{id}: the desktop's poll → status, and the token exactly once after the phone confirmed.
import { route } from '@/lib/http/route'
import { pollLoginTicket } from '@/lib/auth/wechat/login-ticket'
import { ZTicketParamsSchema } from '@/lib/auth/wechat/schemas'

export const GET = route({ access: 'public', params: ZTicketParamsSchema }, ({ params }) => pollLoginTicket(params.id))

// POST /api/auth/wechat/ticket/{id}/scan: the phone opened the QR link; refuses a stale ticket with a clear message.
import { route } from '@/lib/http/route'
import { scanLoginTicket } from '@/lib/auth/wechat/login-ticket'
import { ZTicketParamsSchema } from '@/lib/auth/wechat/schemas'

export const POST = route({ access: 'public', params: ZTicketParamsSchema }, ({ params }) => scanLoginTicket(params.id))

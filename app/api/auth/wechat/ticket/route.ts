// POST /api/auth/wechat/ticket?invite=: a desktop QR login ticket (5 minutes) with its QR code as SVG; an invite code
// rides along in the QR link, so an account the phone creates is bound to the inviter.
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { createLoginTicket } from '@/lib/auth/wechat/login-ticket'
import { ZTicketCreateQuerySchema } from '@/lib/auth/wechat/schemas'

export const POST = route({ access: 'public', query: ZTicketCreateQuerySchema }, ({ req, ip, query }) =>
  createLoginTicket({ origin: siteOrigin(req), ip, userAgent: req.headers.get('user-agent'), invite: query.invite }),
)

// POST /api/auth/wechat/ticket: a desktop QR login ticket (5 minutes) with its QR code as SVG.
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { createLoginTicket } from '@/lib/auth/wechat/login-ticket'

export const POST = route({ access: 'public' }, ({ req, ip }) => createLoginTicket({ origin: siteOrigin(req), ip, userAgent: req.headers.get('user-agent') }))

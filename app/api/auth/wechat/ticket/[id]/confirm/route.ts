// POST /api/auth/wechat/ticket/{id}/confirm {key}: the phone's 确认登录 for a ticket its WeChat OAuth identified;
// only from our own page in the browser that did the OAuth (its state cookie and the one-time key).
import { ok } from '@/lib/http/envelope'
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { assertSameOriginRequest } from '@/lib/auth/same-origin'
import { confirmLoginTicket } from '@/lib/auth/wechat/confirm-ticket'
import { clearedStateCookies, readStateCookie, setCookieHeaders } from '@/lib/auth/wechat/oauth-state'
import { ZTicketConfirmSchema, ZTicketParamsSchema } from '@/lib/auth/wechat/schemas'

export const POST = route({ access: 'public', params: ZTicketParamsSchema, body: ZTicketConfirmSchema }, async ({ req, params, body }) => {
  assertSameOriginRequest(req)
  const result = await confirmLoginTicket({ ticketId: params.id, key: body.key, cookieState: readStateCookie(req.headers) })
  return ok(result, { headers: setCookieHeaders(clearedStateCookies(siteOrigin(req).startsWith('https:'))) })
})

// POST /api/auth/wechat/callback {code, state}: finishes a WeChat authorization (from /wx_auth) → login token, binding,
// or for a desktop QR ticket the phone user's identity and the one-time value to confirm it with.
import { ok } from '@/lib/http/envelope'
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { completeWechatAuthorization } from '@/lib/auth/wechat/complete-authorization'
import { TICKET_FROM_COOKIE, clearedStateCookies, readCookie, readStateCookie, setCookieHeaders } from '@/lib/auth/wechat/oauth-state'
import { ZCallbackSchema } from '@/lib/auth/wechat/schemas'

export const POST = route({ access: 'public', body: ZCallbackSchema }, async ({ req, body }) => {
  const outcome = await completeWechatAuthorization({
    code: body.code,
    state: body.state,
    cookieState: readStateCookie(req.headers),
    ticketFrom: readCookie(req.headers, TICKET_FROM_COOKIE),
  })
  // A ticket's confirmation still needs this browser's state cookie; everything else is done with it.
  if (outcome.kind === 'ticket-identified') return ok(outcome)
  return ok(outcome, { headers: setCookieHeaders(clearedStateCookies(siteOrigin(req).startsWith('https:'))) })
})

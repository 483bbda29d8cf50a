// GET /api/auth/wechat/authorize?purpose=login|ticket|open&return=&ticket=&from=&invite=: a link that 302s to WeChat's authorize page.
// POST {purpose, returnPath?, ticketId?, ticketFrom?, invite?} → data.url: the same, for a signed-in caller binding WeChat (purpose bind).
// A ticket's authorization only identifies the phone's user; confirming is POST /api/auth/wechat/ticket/{id}/confirm.
import { AppError } from '@/lib/http/app-error'
import { ok } from '@/lib/http/envelope'
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { wechatMessageKey } from '@/lib/auth/wechat/messages'
import { setCookieHeaders, stateCookies } from '@/lib/auth/wechat/oauth-state'
import { ZAuthorizeBodySchema, ZAuthorizeQuerySchema } from '@/lib/auth/wechat/schemas'
import { startWechatAuthorization } from '@/lib/auth/wechat/start-authorization'

export const GET = route({ access: 'public', query: ZAuthorizeQuerySchema }, async ({ req, query, user, ip }) => {
  const origin = siteOrigin(req)
  try {
    const started = await startWechatAuthorization({
      purpose: query.purpose,
      returnPath: query.return,
      ticketId: query.ticket,
      ticketFrom: query.from,
      invite: query.invite,
      user,
      origin,
      ip,
    })
    const cookies = stateCookies(started.state, origin.startsWith('https:'), started.ticketFrom)
    return new Response(null, { status: 302, headers: setCookieHeaders(cookies, { location: started.url, 'cache-control': 'no-store' }) })
  } catch (error) {
    // A link cannot show an envelope: the callback page explains the failure instead.
    if (!(error instanceof AppError)) throw error
    return new Response(null, {
      status: 302,
      headers: { location: `${origin}/wx_auth?error=${wechatMessageKey(error.message, error.status)}`, 'cache-control': 'no-store' },
    })
  }
})

export const POST = route({ access: 'public', body: ZAuthorizeBodySchema }, async ({ req, body, user, ip }) => {
  const origin = siteOrigin(req)
  const started = await startWechatAuthorization({
    purpose: body.purpose,
    returnPath: body.returnPath,
    ticketId: body.ticketId,
    ticketFrom: body.ticketFrom,
    invite: body.invite,
    user,
    origin,
    ip,
  })
  return ok({ url: started.url }, { headers: setCookieHeaders(stateCookies(started.state, origin.startsWith('https:'), started.ticketFrom)) })
})

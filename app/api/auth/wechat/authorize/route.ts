// GET /api/auth/wechat/authorize?purpose=login|ticket|open&return=&ticket=: a link that 302s to WeChat's authorize page.
// POST {purpose, returnPath?, ticketId?} → data.url: the same, for a signed-in caller binding WeChat (purpose bind).
import { AppError } from '@/lib/http/app-error'
import { ok } from '@/lib/http/envelope'
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { wechatMessageKey } from '@/lib/auth/wechat/messages'
import { stateCookie } from '@/lib/auth/wechat/oauth-state'
import { ZAuthorizeBodySchema, ZAuthorizeQuerySchema } from '@/lib/auth/wechat/schemas'
import { startWechatAuthorization } from '@/lib/auth/wechat/start-authorization'

export const GET = route({ access: 'public', query: ZAuthorizeQuerySchema }, async ({ req, query, user, ip }) => {
  const origin = siteOrigin(req)
  try {
    const { url, state } = await startWechatAuthorization({ purpose: query.purpose, returnPath: query.return, ticketId: query.ticket, user, origin, ip })
    return new Response(null, { status: 302, headers: { location: url, 'set-cookie': stateCookie(state, origin.startsWith('https:')), 'cache-control': 'no-store' } })
  } catch (error) {
    // A link cannot show an envelope: the callback page explains the failure instead.
    if (!(error instanceof AppError)) throw error
    return new Response(null, { status: 302, headers: { location: `${origin}/wx_auth?error=${wechatMessageKey(error.message, error.status)}`, 'cache-control': 'no-store' } })
  }
})

export const POST = route({ access: 'public', body: ZAuthorizeBodySchema }, async ({ req, body, user, ip }) => {
  const origin = siteOrigin(req)
  const { url, state } = await startWechatAuthorization({ purpose: body.purpose, returnPath: body.returnPath, ticketId: body.ticketId, user, origin, ip })
  return ok({ url }, { headers: { 'set-cookie': stateCookie(state, origin.startsWith('https:')) } })
})

// POST /api/auth/wechat/callback {code, state}: finishes a WeChat authorization (from /wx_auth) → login token, binding or ticket confirmation.
import { ok } from '@/lib/http/envelope'
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { completeWechatAuthorization } from '@/lib/auth/wechat/complete-authorization'
import { clearedStateCookie, readStateCookie } from '@/lib/auth/wechat/oauth-state'
import { ZCallbackSchema } from '@/lib/auth/wechat/schemas'

export const POST = route({ access: 'public', body: ZCallbackSchema }, async ({ req, body }) => {
  const outcome = await completeWechatAuthorization({ code: body.code, state: body.state, cookieState: readStateCookie(req.headers) })
  return ok(outcome, { headers: { 'set-cookie': clearedStateCookie(siteOrigin(req).startsWith('https:')) } })
})

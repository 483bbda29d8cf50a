// POST /api/auth/sms/login {mobile, code, agreeTerms?, invite?} → data.token; the first sign-in creates the account
// (agreeTerms: true records that the user agreed to the terms).
import { route } from '@/lib/http/route'
import { ZSmsLoginSchema } from '@/lib/auth/sms/schemas'
import { loginBySms } from '@/lib/auth/sms/login-by-sms'

export const POST = route({ access: 'public', body: ZSmsLoginSchema }, ({ body, ip }) =>
  loginBySms(body.mobile, body.code, ip, { agreeTerms: body.agreeTerms, invite: body.invite }),
)

// POST /api/auth/sms/send {mobile, purpose: 'login' | 'bind'}: sends a 6-digit code (bind needs a signed-in user).
import { route } from '@/lib/http/route'
import { ZSmsSendSchema } from '@/lib/auth/sms/schemas'
import { sendSmsCode } from '@/lib/auth/sms/send-code'

export const POST = route({ access: 'public', body: ZSmsSendSchema }, ({ body, ip, user }) =>
  sendSmsCode({ mobile: body.mobile, purpose: body.purpose, ip, user }),
)

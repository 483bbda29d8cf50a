// POST /api/users/bind_mobile {mobile, code}: binds the phone to the caller's account → the updated profile.
import { route } from '@/lib/http/route'
import { ZBindMobileSchema } from '@/lib/auth/sms/schemas'
import { bindMobile } from '@/lib/auth/sms/bind-mobile'

export const POST = route({ access: 'user', body: ZBindMobileSchema }, ({ body, ip, user }) => bindMobile(user, body.mobile, body.code, ip))

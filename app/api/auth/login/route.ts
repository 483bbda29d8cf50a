// POST /api/auth/login {username, password} → data.token (throttled per account and address).
import { route } from '@/lib/http/route'
import { ZLoginSchema } from '@/lib/users/schemas'
import { loginUser } from '@/lib/users/login-user'

export const POST = route({ access: 'public', body: ZLoginSchema }, ({ body, ip }) => loginUser(body.username, body.password, ip))

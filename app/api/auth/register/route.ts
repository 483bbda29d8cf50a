// POST /api/auth/register {username, password} → data.token: creates a USER and signs it in.
import { route } from '@/lib/http/route'
import { ZCredentialsSchema } from '@/lib/users/schemas'
import { registerUser } from '@/lib/users/register-user'

export const POST = route({ access: 'public', body: ZCredentialsSchema }, ({ body, ip }) => registerUser(body, ip))

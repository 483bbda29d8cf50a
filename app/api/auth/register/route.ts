// POST /api/auth/register {username, password, agreeTerms?, invite?} → data.token: creates a USER and signs it in
// (agreeTerms: true records that the user agreed to the terms; the site's form always sends it).
import { route } from '@/lib/http/route'
import { ZCredentialsSchema } from '@/lib/users/schemas'
import { registerUser } from '@/lib/users/register-user'

export const POST = route({ access: 'public', body: ZCredentialsSchema }, ({ body, ip }) => registerUser(body, ip))

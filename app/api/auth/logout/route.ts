// POST /api/auth/logout: revokes every token of the caller (logout everywhere).
import { route } from '@/lib/http/route'
import { revokeTokens } from '@/lib/users/revoke-tokens'

export const POST = route({ access: 'user' }, async ({ user }) => {
  await revokeTokens(user.id)
  return null
})

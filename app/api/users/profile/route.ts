// GET /api/users/profile: the caller's user info (docs/PRODUCT.md §3.1). PATCH {name}: edits it.
import { route } from '@/lib/http/route'
import { getProfile } from '@/lib/users/get-profile'
import { updateProfile } from '@/lib/users/update-profile'
import { ZProfileUpdateSchema } from '@/lib/users/schemas'

export const GET = route({ access: 'user' }, ({ user }) => getProfile(user.id))

export const PATCH = route({ access: 'user', body: ZProfileUpdateSchema }, ({ user, body }) => updateProfile(user.id, body))

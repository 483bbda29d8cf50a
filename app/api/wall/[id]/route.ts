// GET /api/wall/{id} (public) → one work on the wall with the parameters it was made with.
import { canEnterAdmin } from '@/lib/auth/permissions'
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { getWallWork } from '@/lib/wall/get-wall-work'

export const GET = route({ access: 'public', params: ZIdParamsSchema }, ({ user, params }) =>
  getWallWork(user ? { id: user.id, canModerate: canEnterAdmin(user.role) } : null, params.id),
)

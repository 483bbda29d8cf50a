// POST /api/wall/{id}/like → data { liked, likes }: likes the work, or takes the like back (once per user).
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { toggleLike } from '@/lib/wall/toggle-like'

export const POST = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => toggleLike(user.id, params.id))

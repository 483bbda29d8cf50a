// POST /api/wall/{id}/favorite → data { favorited }: keeps the work in the caller's 我的收藏, or takes it out.
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { toggleFavorite } from '@/lib/wall/toggle-favorite'

export const POST = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => toggleFavorite(user.id, params.id))

// POST /api/admin/wall/{id}/hide → the work leaves the wall, explore and collections (audited).
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { hideWork } from '@/lib/wall/moderate-work'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => hideWork(user, ip, params.id))

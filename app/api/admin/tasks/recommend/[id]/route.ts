// POST /api/admin/tasks/recommend/{id}: features a published work on the image wall (409 for a private result; audited).
import { route } from '@/lib/http/route'
import { setRecommended } from '@/lib/wall/moderate-work'
import { ZIdParamsSchema } from '@/lib/http/params'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => setRecommended(user, ip, params.id, true))

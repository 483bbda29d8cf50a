// POST /api/admin/tasks/recommend/{id}: puts a finished task on the image wall (audited).
import { route } from '@/lib/http/route'
import { setRecommended } from '@/lib/tasks/set-recommended'
import { ZIdParamsSchema } from '@/lib/http/params'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => setRecommended(user, ip, params.id, true))

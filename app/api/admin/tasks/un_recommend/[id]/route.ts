// POST /api/admin/tasks/un_recommend/{id}: takes a task off the image wall (audited).
import { route } from '@/lib/http/route'
import { setRecommended } from '@/lib/wall/moderate-work'
import { ZIdParamsSchema } from '@/lib/http/params'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => setRecommended(user, ip, params.id, false))

// POST /api/admin/tasks/un_recommend/{id}: takes a task off the image wall (audited).
import { route } from '@/lib/http/route'
import { setRecommended } from '@/lib/tasks/admin-tasks'
import { ZTaskIdParamsSchema } from '@/lib/tasks/schemas'

export const POST = route({ access: 'console', params: ZTaskIdParamsSchema }, ({ user, ip, params }) => setRecommended(user, ip, params.id, false))

// POST /api/admin/tasks/{id}/cancel: cancels any pending task with a refund (audited).
import { route } from '@/lib/http/route'
import { cancelTaskByAdmin } from '@/lib/tasks/cancel-task'
import { ZIdParamsSchema } from '@/lib/http/params'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => cancelTaskByAdmin(user, ip, params.id))

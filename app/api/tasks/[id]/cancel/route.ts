// POST /api/tasks/{id}/cancel: cancels a queued or running task of the caller, with a full refund.
import { route } from '@/lib/http/route'
import { cancelTask } from '@/lib/tasks/cancel-task'
import { ZIdParamsSchema } from '@/lib/http/params'

export const POST = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => cancelTask(user.id, params.id))

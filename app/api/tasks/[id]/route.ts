// GET /api/tasks/{id}: one of the caller's tasks with its queue position (404 for anyone else's).
import { route } from '@/lib/http/route'
import { getMyTask } from '@/lib/tasks/list-tasks'
import { ZIdParamsSchema } from '@/lib/http/params'

export const GET = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => getMyTask(user.id, params.id))

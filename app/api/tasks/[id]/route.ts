// GET /api/tasks/{id}: one of the caller's tasks with its queue position (404 for anyone else's).
// DELETE /api/tasks/{id}: the owner deletes a finished task from their history (and the wall).
import { route } from '@/lib/http/route'
import { deleteMyTask } from '@/lib/tasks/delete-my-task'
import { getMyTask } from '@/lib/tasks/list-tasks'
import { ZIdParamsSchema } from '@/lib/http/params'

export const GET = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => getMyTask(user.id, params.id))

export const DELETE = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => deleteMyTask(user.id, params.id))

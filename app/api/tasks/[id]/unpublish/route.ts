// POST /api/tasks/{id}/unpublish → the owner takes the task's work off the wall.
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { unpublishWork } from '@/lib/wall/publish-work'

export const POST = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => unpublishWork(user.id, params.id))

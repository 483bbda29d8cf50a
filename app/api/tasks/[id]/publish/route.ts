// POST /api/tasks/{id}/publish {index?} → the owner puts one image of a finished task on the wall (pending unless auto-publishing).
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { publishWork } from '@/lib/wall/publish-work'
import { ZPublishSchema } from '@/lib/wall/schemas'

export const POST = route({ access: 'user', params: ZIdParamsSchema, body: ZPublishSchema }, ({ user, params, body }) =>
  publishWork(user.id, params.id, body.index),
)

// PATCH /api/admin/models/{id} (secret write-only) and DELETE (only models without tasks); audited.
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { deleteModel } from '@/lib/models/delete-model'
import { ZModelUpdateSchema } from '@/lib/models/schemas'
import { updateModel } from '@/lib/models/update-model'

export const PATCH = route({ access: 'console', params: ZIdParamsSchema, body: ZModelUpdateSchema }, ({ user, ip, params, body }) =>
  updateModel(user, ip, params.id, body),
)

export const DELETE = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => deleteModel(user, ip, params.id))

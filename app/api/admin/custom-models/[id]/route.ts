// PATCH and DELETE /api/admin/custom-models/{id} (audited).
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { deleteCustomModel } from '@/lib/custom-models/delete-custom-model'
import { ZCustomModelUpdateSchema } from '@/lib/custom-models/schemas'
import { updateCustomModel } from '@/lib/custom-models/update-custom-model'

export const PATCH = route({ access: 'console', params: ZSerialIdParamsSchema, body: ZCustomModelUpdateSchema }, ({ user, ip, params, body }) =>
  updateCustomModel(user, ip, params.id, body),
)

export const DELETE = route({ access: 'console', params: ZSerialIdParamsSchema }, ({ user, ip, params }) => deleteCustomModel(user, ip, params.id))

// PATCH and DELETE /api/admin/custom-models/{id} (audited).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { deleteCustomModel, updateCustomModel, ZCustomModelUpdateSchema } from '@/lib/custom-models/custom-models'

const ZParams = z.object({ id: z.coerce.number().int().positive() })

export const PATCH = route({ access: 'console', params: ZParams, body: ZCustomModelUpdateSchema }, ({ user, ip, params, body }) => updateCustomModel(user, ip, params.id, body))

export const DELETE = route({ access: 'console', params: ZParams }, ({ user, ip, params }) => deleteCustomModel(user, ip, params.id))

// PATCH /api/admin/models/{id} (secret write-only) and DELETE (only models without tasks); audited.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { deleteModel, updateModel } from '@/lib/models/manage-models'
import { ZModelUpdateSchema } from '@/lib/models/schemas'

const ZParams = z.object({ id: z.string().min(1).max(64) })

export const PATCH = route({ access: 'console', params: ZParams, body: ZModelUpdateSchema }, ({ user, ip, params, body }) => updateModel(user, ip, params.id, body))

export const DELETE = route({ access: 'console', params: ZParams }, ({ user, ip, params }) => deleteModel(user, ip, params.id))

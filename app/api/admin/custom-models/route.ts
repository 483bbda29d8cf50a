// GET /api/admin/custom-models: every style preset. POST: creates one (audited).
import { route } from '@/lib/http/route'
import { createCustomModel } from '@/lib/custom-models/create-custom-model'
import { listCustomModels } from '@/lib/custom-models/list-custom-models'
import { ZCustomModelInputSchema } from '@/lib/custom-models/schemas'

export const GET = route({ access: 'console' }, () => listCustomModels())

export const POST = route({ access: 'console', body: ZCustomModelInputSchema }, ({ user, ip, body }) => createCustomModel(user, ip, body))

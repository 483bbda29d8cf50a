// GET /api/admin/custom-models: every style preset. POST: creates one (audited).
import { route } from '@/lib/http/route'
import { createCustomModel, listCustomModels, ZCustomModelInputSchema } from '@/lib/custom-models/custom-models'

export const GET = route({ access: 'console' }, () => listCustomModels(false))

export const POST = route({ access: 'console', body: ZCustomModelInputSchema }, ({ user, ip, body }) => createCustomModel(user, ip, body))

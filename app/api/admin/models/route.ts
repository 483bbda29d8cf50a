// GET /api/admin/models: every model with masked secret, queue and running counts. POST: creates one (audited).
import { route } from '@/lib/http/route'
import { createModel } from '@/lib/models/create-model'
import { listModels } from '@/lib/models/list-models'
import { ZModelInputSchema } from '@/lib/models/schemas'

export const GET = route({ access: 'console' }, () => listModels())

export const POST = route({ access: 'console', body: ZModelInputSchema }, ({ user, ip, body }) => createModel(user, ip, body))

// GET /api/mj/models: enabled Midjourney models with their prices per action and speed modes, for /mj.
import { route } from '@/lib/http/route'
import { listMjModels } from '@/lib/mj/mj-models'

export const GET = route({ access: 'public' }, () => listMjModels())

// GET /api/models: the enabled models with their prices per task type, for the creation pages.
import { route } from '@/lib/http/route'
import { listAvailableModels } from '@/lib/models/list-available-models'

export const GET = route({ access: 'public' }, () => listAvailableModels())

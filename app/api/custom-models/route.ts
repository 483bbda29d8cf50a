// GET /api/custom-models: the enabled style presets (小狸猫) with their prices.
import { route } from '@/lib/http/route'
import { listOfferedCustomModels } from '@/lib/custom-models/list-custom-models'

export const GET = route({ access: 'public' }, () => listOfferedCustomModels())

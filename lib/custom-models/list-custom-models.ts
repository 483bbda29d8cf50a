import 'server-only'
import { db } from '@/lib/db'
import { CUSTOM_MODEL_SELECT } from './custom-model-views'

/** Every preset for the console, or for users only the enabled ones whose backend model is enabled. */
export const listCustomModels = (onlyEnabled: boolean) =>
  db().customModel.findMany({
    where: onlyEnabled ? { enabled: true, model: { enabled: true } } : {},
    select: CUSTOM_MODEL_SELECT,
    orderBy: [{ sort: 'asc' }, { id: 'asc' }],
  })

import 'server-only'
import { db } from '@/lib/db'
import { CUSTOM_MODEL_SELECT, PUBLIC_CUSTOM_MODEL_SELECT } from './custom-model-views'

const ORDER = [{ sort: 'asc' as const }, { id: 'asc' as const }]

/** Every preset for the console. */
export const listCustomModels = () => db().customModel.findMany({ select: CUSTOM_MODEL_SELECT, orderBy: ORDER })

/** For users: the enabled presets whose backend model is enabled, as they see them. */
export const listOfferedCustomModels = () =>
  db().customModel.findMany({ where: { enabled: true, model: { enabled: true } }, select: PUBLIC_CUSTOM_MODEL_SELECT, orderBy: ORDER })

import 'server-only'
import { db } from '@/lib/db'
import { MODEL_SELECT, toAdminModelRow, type AdminModelRow } from './admin-model-views'
import { loadByModel, NO_LOAD } from './model-load'

export async function listModels(): Promise<AdminModelRow[]> {
  const models = await db().aiModel.findMany({ select: MODEL_SELECT, orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }] })
  const load = await loadByModel(models)
  return models.map((m) => toAdminModelRow(m, load.get(m.id) ?? NO_LOAD))
}

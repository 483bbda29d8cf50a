import 'server-only'
import { db } from '@/lib/db'

/** Enabled models and what they cost, for the creation pages (no endpoints, no secrets). */
export async function listAvailableModels() {
  return db().aiModel.findMany({
    where: { enabled: true },
    select: { id: true, name: true, type: true, backend: true, prices: true },
    orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
  })
}

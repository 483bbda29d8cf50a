// GET /api/admin/models as the Prisma queries it replaced made it (lib/models/list-models.ts
// is one statement now): the tests compare the route's answer with this, key for key.
import { db } from '@/lib/db'
import { MODEL_SELECT, toAdminModelRow } from '@/lib/models/admin-model-views'
import { NO_LOAD, type ModelLoad } from '@/lib/models/model-load'

const HOUR_MS = 3600_000

async function loadByModel(models: { id: string; pool: string | null }[]): Promise<Map<string, ModelLoad>> {
  const [pending, attempts] = await Promise.all([
    db().task.groupBy({ by: ['modelId', 'poolKey', 'stage'], where: { status: 'PENDING' }, _count: { _all: true } }),
    db().backendAttempt.groupBy({ by: ['modelId', 'ok'], where: { createdAt: { gte: new Date(Date.now() - HOUR_MS) } }, _count: { _all: true } }),
  ])
  const count = <T extends { _count: { _all: number } }>(rows: T[], keep: (r: T) => boolean) => rows.filter(keep).reduce((n, r) => n + r._count._all, 0)
  return new Map(
    models.map((m) => [
      m.id,
      {
        queued: count(pending, (r) => r.stage === 'QUEUED' && r.poolKey === null && r.modelId === m.id),
        poolQueued: m.pool === null ? null : count(pending, (r) => r.stage === 'QUEUED' && r.poolKey === m.pool),
        running: count(pending, (r) => r.stage !== 'QUEUED' && r.modelId === m.id),
        recentAttempts: count(attempts, (r) => r.modelId === m.id),
        recentFailures: count(attempts, (r) => r.modelId === m.id && !r.ok),
      },
    ]),
  )
}

/** The whole answer: every model, its secret masked, with its load. */
export async function prismaModelRows() {
  const models = await db().aiModel.findMany({ select: MODEL_SELECT, orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }] })
  const load = await loadByModel(models)
  return models.map((m) => toAdminModelRow(m, load.get(m.id) ?? NO_LOAD))
}

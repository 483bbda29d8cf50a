import 'server-only'
import { db } from '@/lib/db'

/**
 * What /admin/model_mana shows of an instance's work. A queued task of a pool waits for
 * the pool (any healthy member may take it), so it is counted once per pool, not on the
 * member the user happened to pick; running tasks are counted on the instance running them.
 */
export type ModelLoad = {
  /** Queued tasks only this instance can run (a lone model, or a button pinned to its parent's instance). */
  queued: number
  /** Queued tasks of this instance's pool; null without a pool. */
  poolQueued: number | null
  /** Tasks this instance is submitting or running now. */
  running: number
  /** The last hour's runs on this instance (BackendAttempt): every try counts where it happened, a failed-over task included. */
  recentAttempts: number
  recentFailures: number
}

export const NO_LOAD: ModelLoad = { queued: 0, poolQueued: null, running: 0, recentAttempts: 0, recentFailures: 0 }

const HOUR_MS = 3600_000

export async function loadByModel(models: { id: string; pool: string | null }[]): Promise<Map<string, ModelLoad>> {
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

import 'server-only'
import { db } from '@/lib/db'

export const PRUNE_BACKEND_ATTEMPTS_JOB = 'prune-backend-attempts'
/** Attempts are kept this long (the console shows the last hour; the rest is for looking back at an incident). */
export const ATTEMPTS_KEPT_MS = 7 * 24 * 3600_000

const BASE_COOLDOWN_MS = 60_000
const MAX_COOLDOWN_MS = 30 * 60_000
/** Failures older than this no longer lengthen a cooldown. */
const FAILURE_WINDOW_MS = 6 * 3600_000

/**
 * How long a backend taken out by a failed task stays out before a health check may bring
 * it back: 1 minute after its first failure since its last success, doubling with each
 * further one (2, 4, 8 ... at most 30 minutes). A backend that answers the health check
 * but fails every job thus costs one task per growing interval, not one a minute.
 */
export async function taskFailureCooldownMs(modelId: string, now = new Date()): Promise<number> {
  const lastSuccess = await db().backendAttempt.findFirst({ where: { modelId, ok: true }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } })
  const windowStart = Math.max(lastSuccess?.createdAt.getTime() ?? 0, now.getTime() - FAILURE_WINDOW_MS)
  const failures = await db().backendAttempt.count({ where: { modelId, ok: false, createdAt: { gt: new Date(windowStart) } } })
  return Math.min(MAX_COOLDOWN_MS, BASE_COOLDOWN_MS * 2 ** Math.max(0, failures - 1))
}

/** Deletes attempts older than a week (a worker job). */
export async function pruneBackendAttempts(now = new Date()): Promise<number> {
  const { count } = await db().backendAttempt.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - ATTEMPTS_KEPT_MS) } } })
  return count
}

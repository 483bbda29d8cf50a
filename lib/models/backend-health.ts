import 'server-only'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { createAdapter, isSupportedBackend } from '@/lib/generation/backends/registry'
import { announceQueueChangeNow } from '@/lib/signals/queue-signal'
import { taskFailureCooldownMs } from './backend-attempts'
import { backendConfig, type ModelConnection } from './backend-config'

export const CHECK_BACKENDS_JOB = 'check-backends'
/** A backend taken out by a failed task gets at least this long before a check may bring it back (longer after repeated failures: backend-attempts.ts). */
export const COOLDOWN_MS = 60_000
/** Marks a health message that came from a failed task (the cooldown applies to those). */
const TASK_FAILURE = '任务失败：'
/** Consecutive failed checks that take a backend out. */
const FAILED_CHECKS_TO_REMOVE = 2
const CHECK_TIMEOUT_MS = 10_000

/** How one attempt of a task on one instance ended (the console's per-instance error rate). */
export async function recordAttempt(modelId: string, taskId: string, ok: boolean, error?: string): Promise<void> {
  await db().backendAttempt.create({ data: { modelId, taskId, ok, error: error?.slice(0, 300) ?? null } })
}

/**
 * The backend itself failed a task (unreachable, no answer in time, or failing its health
 * check right after an error): take it out at once, so the retry goes to another instance
 * of its pool, and new submits to a model with no instance left are refused.
 */
export async function recordBackendFailure(modelId: string, taskId: string, message: string): Promise<void> {
  await db().$transaction([takeOut(modelId, message), db().backendAttempt.create({ data: { modelId, taskId, ok: false, error: message.slice(0, 300) } })])
}

/** Takes an instance out of routing (a task failure's cooldown applies before a check may bring it back). */
export async function takeOutOfRouting(modelId: string, message: string): Promise<void> {
  await takeOut(modelId, message)
}

function takeOut(modelId: string, message: string) {
  return db().$executeRaw`
    UPDATE "AiModel" SET "healthy" = false, "healthFailures" = "healthFailures" + 1, "healthCheckedAt" = now(),
      "healthMessage" = ${(TASK_FAILURE + message).slice(0, 300)}, "outSince" = COALESCE("outSince", now())
    WHERE "id" = ${modelId}`
}

/** How long the check right after a failed task may take before the backend counts as not answering. */
const CONFIRM_TIMEOUT_MS = 5_000

/**
 * After a backend answered a task with an error (a 5xx, a garbled result): does it still
 * answer its health check? Then the failure is the task's (a prompt or size it cannot do,
 * say an out-of-memory), and the backend stays in routing for everyone else.
 */
export async function backendStillAnswers(model: ModelConnection): Promise<boolean> {
  const result = await testWithTimeout(model, CONFIRM_TIMEOUT_MS).catch(() => ({ ok: false }))
  return result.ok
}

/** Over this window, an instance failing most of its tasks, for more than one user, leaves routing. */
const FAILURE_SHARE_WINDOW = '10 minutes'
const FAILURE_SHARE_MIN_TASKS = 3
const FAILURE_SHARE_MIN_USERS = 2
const FAILURE_SHARE = 0.8

/**
 * An instance that answers its health check but fails (nearly) every job: at least 3
 * recent tasks failed there, from at least 2 users, and 80% of the tasks tried there in
 * the last 10 minutes. One user's prompt, however often retried, is never enough.
 */
export async function failsMostTasks(modelId: string): Promise<boolean> {
  const [row] = await db().$queryRaw<{ tried: number; failed: number; users: number }[]>`
    WITH recent AS (
      SELECT a."taskId", bool_or(a."ok") AS ok, bool_or(NOT a."ok") AS failed
      FROM "BackendAttempt" a
      WHERE a."modelId" = ${modelId} AND a."createdAt" > now() - ${FAILURE_SHARE_WINDOW}::interval
      GROUP BY a."taskId"
    )
    SELECT count(*)::int AS tried,
      count(*) FILTER (WHERE r.failed AND NOT r.ok)::int AS failed,
      count(DISTINCT t."userId") FILTER (WHERE r.failed AND NOT r.ok)::int AS users
    FROM recent r LEFT JOIN "Task" t ON t."id" = r."taskId"`
  if (!row) return false
  return row.failed >= FAILURE_SHARE_MIN_TASKS && row.users >= FAILURE_SHARE_MIN_USERS && row.failed >= FAILURE_SHARE * row.tried
}

async function testWithTimeout(model: ModelConnection, timeoutMs = CHECK_TIMEOUT_MS) {
  if (!isSupportedBackend(model.backend)) return { ok: false, message: `暂不支持该后端类型（${model.backend}）` }
  const timeout = new Promise<{ ok: boolean; message: string }>((resolve) =>
    setTimeout(() => resolve({ ok: false, message: '健康检查超时' }), timeoutMs).unref(),
  )
  return Promise.race([createAdapter(model.backend, backendConfig(model)).test(), timeout])
}

/**
 * The health check (a worker job): asks every enabled backend for its health or model
 * list. A backend that fails twice in a row is taken out of routing; one that answers
 * again (and whose cooldown after a failed task has passed, growing with its recent
 * failed attempts) is brought back.
 */
export async function checkBackends(): Promise<void> {
  const models = await db().aiModel.findMany({ where: { enabled: true } })
  const now = Date.now()
  let routingChanged = false
  await Promise.all(
    models.map(async (model) => {
      const isCoolingDown =
        !model.healthy &&
        model.healthMessage?.startsWith(TASK_FAILURE) &&
        model.healthCheckedAt &&
        now - model.healthCheckedAt.getTime() < (await taskFailureCooldownMs(model.id))
      if (isCoolingDown) return
      const claim = await claimCheck(model.id)
      if (!claim) return
      const result = await testWithTimeout(model).catch((error: Error) => ({ ok: false, message: error.message }))
      const failures = result.ok ? 0 : claim.healthFailures + 1
      const healthy = result.ok || (claim.healthy && failures < FAILED_CHECKS_TO_REMOVE)
      // Not if a task failed there since the claim (takeOut counts a failure with its message):
      // that took it out with a cooldown, which an answer to this check must not undo.
      // healthCheckedAt stays the claim's, on the database's clock the claims compare with.
      const { count } = await db().aiModel.updateMany({
        where: {
          id: model.id,
          OR: [{ healthMessage: null }, { NOT: { healthMessage: { startsWith: TASK_FAILURE } } }, { healthFailures: { lte: claim.healthFailures } }],
        },
        data: {
          healthy,
          healthFailures: failures,
          healthMessage: result.ok ? null : result.message.slice(0, 300),
          outSince: healthy ? null : (claim.outSince ?? new Date()),
        },
      })
      // Back: its queued tasks were waiting for it. Out of a pool: a retry that waited for
      // another member (claim-task.ts) may now go back to the one it failed on.
      if (count && ((result.ok && !claim.healthy) || (claim.healthy && !healthy && model.pool))) routingChanged = true
    }),
  )
  // Idle workers do not poll for these: wake them.
  if (routingChanged) await announceQueueChangeNow()
}

type CheckClaim = { healthy: boolean; healthFailures: number; outSince: Date | null }

/**
 * Every worker runs the health check, each on its own timer. A check is claimed by moving
 * the backend's healthCheckedAt forward, and only when the last one is half an interval old:
 * two workers' checks a moment apart are then one check, not two failures in a row that
 * would take a backend out for one slow answer. Answers the backend as it is now. (Checks
 * may overlap when half an interval is shorter than a check's timeout; each answer is then
 * written, the later one last.)
 */
async function claimCheck(modelId: string): Promise<CheckClaim | null> {
  const halfInterval = env().BACKEND_CHECK_SECONDS * 500
  const [claim] = await db().$queryRaw<CheckClaim[]>`
    UPDATE "AiModel" SET "healthCheckedAt" = now()
    WHERE "id" = ${modelId} AND ("healthCheckedAt" IS NULL OR "healthCheckedAt" <= now() - ${halfInterval}::int * interval '1 millisecond')
    RETURNING "healthy", "healthFailures", "outSince"`
  return claim ?? null
}

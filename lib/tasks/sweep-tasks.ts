import 'server-only'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { announceQueueChange, wakeLocalRunner } from '@/lib/signals/queue-signal'
import { getConfigValue } from '@/lib/site-config/store'
import { failTask } from './finish-task'
import { interruptUnfollowed } from './interrupt-unfollowed'
import { TASK_ERROR_MESSAGES } from './task-views'

export const SWEEP_TASKS_JOB = 'sweep-tasks'
/** How often the sweeper looks (a worker job): twice per lease, so a dead worker's task waits at most 1.5 leases. */
export function sweepIntervalMs(): number {
  return env().WORKER_LEASE_SECONDS * 500
}
const BATCH = 100

/**
 * The sweeper (a worker job): nothing paid for is ever stuck or lost.
 * - Past its deadline, a PENDING task fails with a refund (its worker, if any, notices).
 * - A task whose worker vanished (lease expired): an accepted job is handed to another
 *   worker to wait for; a job never accepted goes back to the queue while attempts
 *   remain (marked so that the next attempt asks the backend first whether the job got
 *   there), else fails with a refund.
 * - A queued task none of whose backends is in routing fails with a refund once the
 *   backend has been out (or the task waited, if it was out already) for the site's
 *   BACKEND_OUTAGE_REFUND_SECONDS.
 * Every change is conditional on what was seen, so a worker coming back wins or loses cleanly.
 */
export async function sweepTasks(): Promise<boolean> {
  // The database's clock: leases are written by it (claim, heartbeat), whatever this machine's clock says.
  const [{ now }] = await db().$queryRaw<[{ now: Date }]>`SELECT now() AS "now"`
  const stranded = await failStrandedTasks()
  const overdue = await db().task.findMany({ where: { status: 'PENDING', deadlineAt: { lt: now } }, select: { id: true }, take: BATCH })
  const timedOut = await eachTask(overdue, async ({ id }) => {
    const ended = await failTask(id, { errorCode: 'TIMEOUT', errorMessage: TASK_ERROR_MESSAGES.TIMEOUT })
    if (ended) await interruptUnfollowed(ended)
  })

  const orphans = await db().task.findMany({
    where: { status: 'PENDING', stage: { in: ['SUBMITTING', 'RUNNING'] }, leaseExpiresAt: { lt: now } },
    select: { id: true, upstreamId: true, attempts: true, maxAttempts: true, leaseOwner: true },
    take: BATCH,
  })
  let requeued = 0
  const recovered = await eachTask(orphans, async (task) => {
    const stillOrphaned = { id: task.id, status: 'PENDING' as const, leaseOwner: task.leaseOwner, leaseExpiresAt: { lt: now } }
    if (task.upstreamId) {
      requeued += (await db().task.updateMany({ where: stillOrphaned, data: { stage: 'RUNNING', leaseOwner: null, leaseExpiresAt: null } })).count
    } else if (task.attempts < task.maxAttempts) {
      requeued += (
        await db().task.updateMany({
          where: stillOrphaned,
          data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null, runAfter: now, probeBeforeSubmit: true },
        })
      ).count
    } else if (task.leaseOwner) {
      await failTask(task.id, { errorCode: 'BACKEND_LOST', errorMessage: TASK_ERROR_MESSAGES.BACKEND_LOST }, { workerId: task.leaseOwner, leaseOverBy: now })
    }
  })
  if (requeued) {
    await db().$transaction((tx) => announceQueueChange(tx))
    wakeLocalRunner()
  }
  // A full batch handled means more may wait. Tasks that could not be settled come back first: no rerun at once for them.
  return stranded === BATCH || timedOut === BATCH || recovered === BATCH
}

/**
 * Queued tasks that nothing can run: their lone backend, or every instance of their pool,
 * is out of routing; or the one instance a Midjourney button's task is pinned to is a pool
 * member the console switched off (the claim passes it by, as it passes by any disabled
 * pool member); or a pool task waiting to be probed on the instance its job was sent to
 * (see claimOnBackend) finds that instance out of routing. Each fails once it has waited the set time since the backend went
 * out (or since its submit, if later); looking one sweep ahead keeps that a promise
 * ("within"), not a minimum.
 */
async function failStrandedTasks(): Promise<number> {
  const rows = await db().$queryRaw<{ id: string; modelName: string; waitingSince: Date }[]>`
    SELECT t."id", m."name" AS "modelName", GREATEST(t."createdAt", (
        SELECT max(o."outSince") FROM "AiModel" o WHERE (t."poolKey" IS NULL AND o."id" = t."modelId") OR (t."poolKey" = o."pool" AND o."enabled"))
      ) AS "waitingSince"
    FROM "Task" t JOIN "AiModel" m ON m."id" = t."modelId"
    WHERE t."status" = 'PENDING' AND t."stage" = 'QUEUED'
      AND NOT EXISTS (
        SELECT 1 FROM "AiModel" r WHERE r."healthy" AND (r."enabled" OR r."pool" IS NULL) AND ((r."id" = t."modelId" AND t."poolKey" IS NULL) OR (r."pool" = t."poolKey"
          AND (r."id" = t."modelId" OR NOT (t."probeBeforeSubmit" AND m."pool" IS NOT DISTINCT FROM t."poolKey" AND m."enabled")))))
    ORDER BY 3
    LIMIT ${BATCH}`
  if (rows.length === 0) return 0
  const limitMs = (await getConfigValue<number>('BACKEND_OUTAGE_REFUND_SECONDS')) * 1000
  const cutoff = Date.now() - Math.max(0, limitMs - sweepIntervalMs())
  const due = rows.filter((row) => row.waitingSince.getTime() <= cutoff)
  // Still queued under the row lock: a worker may have claimed it since (its backend back meanwhile).
  return eachTask(due, (row) =>
    failTask(row.id, { errorCode: 'BACKEND_DOWN', errorMessage: `模型「${row.modelName}」暂时不可用，任务已取消，积分已退还` }, { stillQueued: true }),
  )
}

/**
 * Handles each task on its own and returns how many were handled: one that cannot be
 * settled (say, a refund the ledger refuses) is logged and met again on the next pass,
 * instead of stopping the sweep before the tasks after it.
 */
async function eachTask<T extends { id: string }>(tasks: T[], handle: (task: T) => Promise<unknown>): Promise<number> {
  let handled = 0
  for (const task of tasks) {
    try {
      await handle(task)
      handled++
    } catch (error) {
      console.error(`[sweeper] task ${task.id} could not be settled`, error)
    }
  }
  return handled
}

import { db } from '@/lib/db'
import { failTask } from './finish-task'
import { announceQueueChange, wakeLocalRunner } from './queue-signal'
import { TASK_ERROR_MESSAGES } from './task-views'

export const SWEEP_TASKS_JOB = 'sweep-tasks'
const BATCH = 100

/**
 * The sweeper (a worker job): nothing paid for is ever stuck or lost.
 * - Past its deadline, a PENDING task fails with a refund (its worker, if any, notices).
 * - A task whose worker vanished (lease expired): an accepted job is handed to another
 *   worker to wait for; a job never accepted goes back to the queue while attempts
 *   remain (marked so that the next attempt asks the backend first whether the job got
 *   there), else fails with a refund.
 * Every change is conditional on what was seen, so a worker coming back wins or loses cleanly.
 */
export async function sweepTasks(): Promise<boolean> {
  const now = new Date()
  const overdue = await db().task.findMany({ where: { status: 'PENDING', deadlineAt: { lt: now } }, select: { id: true }, take: BATCH })
  for (const { id } of overdue) await failTask(id, { errorCode: 'TIMEOUT', errorMessage: TASK_ERROR_MESSAGES.TIMEOUT })

  const orphans = await db().task.findMany({
    where: { status: 'PENDING', stage: { in: ['SUBMITTING', 'RUNNING'] }, leaseExpiresAt: { lt: now } },
    select: { id: true, upstreamId: true, attempts: true, maxAttempts: true, leaseOwner: true },
    take: BATCH,
  })
  let requeued = 0
  for (const task of orphans) {
    const stillOrphaned = { id: task.id, status: 'PENDING' as const, leaseOwner: task.leaseOwner, leaseExpiresAt: { lt: now } }
    if (task.upstreamId) {
      requeued += (await db().task.updateMany({ where: stillOrphaned, data: { stage: 'RUNNING', leaseOwner: null, leaseExpiresAt: null } })).count
    } else if (task.attempts < task.maxAttempts) {
      requeued += (await db().task.updateMany({ where: stillOrphaned, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null, runAfter: now, probeBeforeSubmit: true } })).count
    } else if (task.leaseOwner) {
      await failTask(task.id, { errorCode: 'BACKEND_LOST', errorMessage: TASK_ERROR_MESSAGES.BACKEND_LOST }, task.leaseOwner)
    }
  }
  if (requeued) {
    await db().$transaction((tx) => announceQueueChange(tx))
    wakeLocalRunner()
  }
  return overdue.length === BATCH || orphans.length === BATCH
}

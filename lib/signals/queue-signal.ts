import 'server-only'
import type { Tx } from '@/lib/db'
import { JOB_CHANNEL, signalJob, signalNow } from './job-signal'
import { wakeLocalWorker } from './local-worker'

/** The signal that makes workers look at the queue (LISTEN/NOTIFY payload). */
export const RUN_TASKS_JOB = 'run-tasks'

/**
 * Tells every worker the queue changed: a task was queued or released, a backend slot
 * freed (a task ended), a backend came back or left its pool. Idle workers sleep until
 * such a signal, so whatever can let a waiting task run must send one. Inside `tx` it is
 * delivered on commit.
 */
export async function announceQueueChange(tx: Tx): Promise<void> {
  await signalJob(tx, RUN_TASKS_JOB)
}

/**
 * A task ended and freed its backend slot: worth waking the workers only if some task
 * waits in the queue (one submitted meanwhile announces itself). Saves every idle worker
 * a look at an empty queue after each task.
 */
export async function announceSlotFreed(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${JOB_CHANNEL}, ${RUN_TASKS_JOB}) WHERE EXISTS (SELECT 1 FROM "Task" WHERE "status" = 'PENDING' AND "stage" = 'QUEUED')`
}

/** Outside a transaction (the change is already committed). */
export function announceQueueChangeNow(): Promise<void> {
  return signalNow(RUN_TASKS_JOB)
}

/** After a commit that announced: the embedded database passes no notifications, so wake this process's worker too. */
export function wakeLocalRunner(): void {
  wakeLocalWorker(RUN_TASKS_JOB)
}

import 'server-only'
import { db } from '@/lib/db'
import { createAdapter } from '@/lib/generation/backends/registry'
import type { BackendAdapter, GenerationJob } from '@/lib/generation/backends/types'
import { backendConfig } from '@/lib/models/backend-config'
import { buildJob } from './build-job'
import type { ClaimedTask } from './claim-task'
import { holdLease } from './run-lease'
import { markAccepted, produce } from './run-produce'
import { settleFailure, settleSuccess } from './run-settle'

/**
 * Runs one claimed task to its end in three parts: the lease (heartbeat, cancel, deadline
 * and shutdown stop it: run-lease.ts), producing the images (submit, or after a worker
 * died probe and resume, then wait: run-produce.ts), and settling (store the images and
 * mark SUCCESS; or requeue with backoff, ask a busy backend again, or fail with a refund:
 * run-settle.ts).
 */
export async function runTask(claimed: ClaimedTask, workerId: string, shutdown: AbortSignal): Promise<void> {
  const task = await db().task.findUniqueOrThrow({
    where: { id: claimed.id },
    select: {
      id: true,
      userId: true,
      params: true,
      deadlineAt: true,
      previewUrl: true,
      maxAttempts: true,
      upstreamId: true,
      poolKey: true,
      chargedPoints: true,
      priceSnapshot: true,
      backendLog: true,
      model: true,
      customModel: { select: { checkpoint: true, lora: true } },
    },
  })
  const lease = holdLease(task, workerId, shutdown)
  let adapter: BackendAdapter | null = null
  let job: GenerationJob | null = null
  let upstreamId = task.upstreamId
  try {
    adapter = createAdapter(task.model.backend, backendConfig(task.model))
    job = await buildJob(task)
    const outcome = await produce(adapter, job, claimed, lease.ctx, async (id) => {
      upstreamId = id
      await markAccepted(task.id, workerId, id, lease.ctx.signal)
    })
    await settleSuccess(task, workerId, outcome)
  } catch (error) {
    await settleFailure(error, {
      taskId: task.id,
      model: task.model,
      poolKey: task.poolKey,
      workerId,
      attempts: claimed.attempts,
      maxAttempts: task.maxAttempts,
      accepted: Boolean(upstreamId),
      stopReason: lease.stopReason(),
      deadlineAt: task.deadlineAt,
      previousLog: task.backendLog,
    })
    const stopReason = lease.stopReason() // read again: the deadline may have passed while settling
    // Ended elsewhere is a cancel or a timeout, or a hand-over: the sweeper gave a lapsed lease's
    // job to another worker, now waiting for it, which an interrupt would fail.
    const stopJob = stopReason === 'deadline' || (stopReason === 'ended-elsewhere' && !(await stillPending(task.id)))
    if (adapter?.interrupt && job && stopJob) await adapter.interrupt(upstreamId, job)
  } finally {
    lease.end()
  }
}

/** Whether the task is still to be done (someone else's now); a failed read says yes, as leaving a job running costs less than killing one. */
async function stillPending(taskId: string): Promise<boolean> {
  const row = await db()
    .task.findUnique({ where: { id: taskId }, select: { status: true } })
    .catch(() => ({ status: 'PENDING' as const }))
  return row?.status === 'PENDING'
}

import 'server-only'
import { setTimeout as sleep } from 'node:timers/promises'
import { db } from '@/lib/db'
import { isDatabaseUnavailable } from '@/lib/http/database-unavailable'
import { BackendError, type BackendAdapter, type GenerationJob, type RunContext, type WaitOutcome } from '@/lib/generation/backends/types'
import { leaseMs, type ClaimedTask } from './claim-task'

/**
 * The backend ran an earlier attempt whose images went to a worker that died (SD WebUI
 * answers on the submit's own connection). The task fails with BACKEND_LOST and a refund,
 * but the loss is ours, not the backend's: it does not count against its health.
 */
export class LostWithWorkerError extends BackendError {
  constructor() {
    super('UPSTREAM_FAILED', 'the backend ran an earlier attempt whose result cannot be fetched', false, { code: 'BACKEND_LOST' })
  }
}

/**
 * Asking the backend whether it has the job failed: whether it has it is still unknown, so
 * the next attempt must ask again before it submits (whatever the error, a 502 included).
 */
export class ProbeFailedError extends BackendError {
  constructor(cause: BackendError) {
    super(cause.code, `asking whether the backend has the job failed: ${cause.message}`, cause.retryable, cause.detail, cause.userMessage)
  }
}

/**
 * Submit (or resume) and wait: the images, however the backend delivers them. After an
 * attempt that ended without an answer it first asks the backend whether it has the job,
 * so an accepted job is never submitted twice. `onAccepted` runs once the backend gave
 * its id (see markAccepted).
 */
export async function produce(
  adapter: BackendAdapter,
  job: GenerationJob,
  claimed: ClaimedTask,
  ctx: RunContext,
  onAccepted: (id: string) => Promise<void>,
): Promise<WaitOutcome> {
  let upstreamId = claimed.upstreamId
  if (!upstreamId && claimed.probeBeforeSubmit && adapter.probe) {
    // The previous attempt ended without an answer (its worker died or drained mid-submit,
    // or the backend did not answer in time): the backend may have the job.
    const known = await adapter.probe(job).catch((error: unknown) => {
      throw error instanceof BackendError ? new ProbeFailedError(error) : error
    })
    if (known.known && !known.upstreamId) throw new LostWithWorkerError()
    if (known.known) upstreamId = known.upstreamId
  }
  if (!upstreamId) {
    const outcome = await adapter.submit(job, ctx)
    if (outcome.kind === 'completed') return outcome
    upstreamId = outcome.upstreamId
    await onAccepted(upstreamId)
  } else if (upstreamId !== claimed.upstreamId) {
    await onAccepted(upstreamId)
  }
  if (!adapter.wait) throw new BackendError('BAD_RESPONSE', `backend ${adapter.kind} accepted a job but cannot be waited on`, false)
  return adapter.wait(upstreamId, job, ctx)
}

/**
 * The backend accepted the job: its id is kept (a later attempt resumes it) and the task is
 * RUNNING. Without the id, whoever takes the task over submits it again, and a provider that
 * bills per job bills twice: so a database that is away is asked again for half a lease
 * (the lease still holds meanwhile), and an id that could not be kept is logged.
 */
export async function markAccepted(taskId: string, workerId: string, upstreamId: string, signal: AbortSignal, write = keepUpstreamId): Promise<void> {
  const giveUpAt = Date.now() + leaseMs() / 2
  for (let wait = 500; ; wait = Math.min(wait * 2, 4_000)) {
    try {
      const kept = await write(taskId, workerId, upstreamId)
      if (!kept) console.error(`[worker] task ${taskId} was handed on as backend job ${upstreamId} was accepted; this worker stops following that job`)
      return
    } catch (error) {
      if (!isDatabaseUnavailable(error) || signal.aborted || Date.now() + wait > giveUpAt) {
        console.error(`[worker] task ${taskId}: backend job ${upstreamId} was accepted but could not be recorded`)
        throw error
      }
      await sleep(wait, undefined, { signal }).catch(() => undefined)
    }
  }
}

/** Whether the id was written: false when the task is no longer this worker's. */
async function keepUpstreamId(taskId: string, workerId: string, upstreamId: string): Promise<boolean> {
  const { count } = await db().task.updateMany({ where: { id: taskId, leaseOwner: workerId }, data: { upstreamId, stage: 'RUNNING' } })
  return count === 1
}

import 'server-only'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { BackendError, UnreadAcceptanceError, type WaitOutcome } from '@/lib/generation/backends/types'
import { isDatabaseUnavailable } from '@/lib/http/database-unavailable'
import { storeResults } from '@/lib/generation/store-results'
import { storeVideos } from '@/lib/generation/store-videos'
import type { ModelConnection } from '@/lib/models/backend-config'
import { backendStillAnswers, failsMostTasks, recordAttempt, recordBackendFailure, takeOutOfRouting } from '@/lib/models/backend-health'
import { announceQueueChangeNow } from '@/lib/signals/queue-signal'
import { getConfigValue } from '@/lib/site-config/store'
import { removeFile, storedKeyOf } from '@/lib/storage/storage'
import { MissingInputError } from './build-job'
import { completeTask, failTask, type Shortfall } from './finish-task'
import { LostWithWorkerError, ProbeFailedError } from './run-produce'
import type { StopReason } from './run-lease'
import { TASK_ERROR_MESSAGES, taskErrorMessage } from './task-views'

const BACKOFF_BASE_MS = 5_000
const BACKOFF_MAX_MS = 5 * 60_000
/** A task's own failure (the backend answered with an error) is tried again after 2 s, then 5 s: three attempts within about 20 s. */
const TASK_RETRY_DELAYS_MS = [2_000, 5_000]
/** A busy backend (queue full, 429/503) is asked again after 2 s, 4 s, 8 s ... at most a minute apart. */
const BUSY_BACKOFF_BASE_MS = 2_000
const BUSY_BACKOFF_MAX_MS = 60_000

/** Storing the results failed (the bucket refused a write): the task fails with STORAGE_FAILED. */
export class StorageError extends Error {}

type TaskForSettle = { id: string; userId: string; params: unknown; chargedPoints: number; priceSnapshot: unknown; model: { id: string } }

/** The task's images are copied into storage and it ends SUCCESS (if this worker still holds it), with the images not delivered refunded. */
export async function settleSuccess(task: TaskForSettle, workerId: string, outcome: WaitOutcome): Promise<void> {
  const [siteName, visibleMark] = await Promise.all([getConfigValue<string>('name'), getConfigValue<boolean>('AI_MARK_ENABLED')])
  const stored = await storeResults(task.id, outcome.images, { siteName, visibleMark }).catch((error) => {
    throw new StorageError(String(error))
  })
  const images = stored.flatMap((image) => [image.url, image.thumbUrl])
  if (outcome.videos) {
    // A clip is one unit, paid as such: adapters deliver it or fail, so there is no shortfall.
    const videos = await storeVideos(task.id, outcome.videos, { siteName, visibleMark }).catch(async (error) => {
      await removeUnclaimed(images)
      throw new StorageError(String(error))
    })
    if (videos.length === 0) throw new BackendError('BAD_RESPONSE', 'the backend finished without a clip', false)
    if (await completeTask(task.id, workerId, stored, outcome.log, { videos })) await recordAttempt(task.model.id, task.id, true)
    else await removeUnclaimed([...images, ...videos.flatMap((video) => [video.url, video.posterUrl])])
    return
  }
  const completed = await completeTask(
    task.id,
    workerId,
    stored,
    outcome.log,
    {
      buttons: outcome.buttons,
      ...(outcome.prompts ? { params: { ...(task.params as Record<string, unknown>), describedPrompts: outcome.prompts } } : {}),
    },
    // A text result (describe) has no images to count.
    outcome.prompts ? undefined : shortfallOf(task, stored.length),
  )
  if (completed) await recordAttempt(task.model.id, task.id, true)
  else await removeUnclaimed(images)
}

/**
 * Files stored for an ending this worker did not get (the user cancelled meanwhile, or the
 * task was handed to another worker): no row names them, and their names are unguessable and
 * this attempt's own, so nothing else can.
 */
async function removeUnclaimed(urls: string[]): Promise<void> {
  const keys = urls.map((url) => storedKeyOf(url, 'results')).filter((key) => key !== null)
  await Promise.all(keys.map((key) => removeFile(key).catch((error: unknown) => console.warn(`[tasks] could not remove the unclaimed ${key}:`, error))))
}

/**
 * The images paid for but not delivered, at their share of what was charged (a member's
 * discount included), rounded down: the images delivered are never free.
 */
function shortfallOf(task: { userId: string; chargedPoints: number; priceSnapshot: unknown; params: unknown }, delivered: number): Shortfall | undefined {
  const snapshot = (task.priceSnapshot ?? {}) as { count?: unknown }
  const ordered = typeof snapshot.count === 'number' ? snapshot.count : Number((task.params as { count?: unknown }).count ?? 1)
  if (!(delivered < ordered)) return undefined
  return { userId: task.userId, ordered, delivered, points: Math.floor((task.chargedPoints * (ordered - delivered)) / ordered) }
}

/** Final failures that count against the backend's health (a refused prompt does not). */
const BACKEND_FAULTS = new Set(['UNREACHABLE', 'TIMEOUT', 'BAD_RESPONSE', 'UPSTREAM_FAILED', 'UNAUTHORIZED'])
/** No answer at all: the backend, not the job, is what failed. */
const NO_ANSWER = new Set(['UNREACHABLE', 'TIMEOUT'])

export type FailedRun = {
  taskId: string
  model: ModelConnection & { id: string }
  poolKey: string | null
  workerId: string
  attempts: number
  maxAttempts: number
  accepted: boolean
  stopReason: StopReason | null
  deadlineAt: Date
  /** The task's backendLog before this attempt (it counts busy answers in a row). */
  previousLog: unknown
}

/**
 * An attempt that failed or was stopped: released when the worker shuts down, asked again
 * when the backend was busy, failed with a refund at the deadline, requeued with backoff
 * when it may pass and attempts are left (whose failure it was decides the pace), else
 * failed with a refund. Each ending is recorded against the instance it ran on.
 */
export async function settleFailure(error: unknown, run: FailedRun): Promise<void> {
  const { taskId, workerId } = run
  const modelId = run.model.id
  if (run.stopReason === 'ended-elsewhere') return // the canceller or the sweeper already ended it
  if (run.stopReason === 'shutdown') return releaseForLater(taskId, workerId)
  // The database went away (storing the result, renewing the lease): neither the task's fault
  // nor the backend's, and failing it would refund a result that may be done. The lease stays;
  // when it expires the sweeper resumes or requeues the task (docs/DECISIONS.md "Database timeouts").
  if (!(error instanceof BackendError) && isDatabaseUnavailable(error))
    return void console.error(`[worker] task ${taskId}: database unavailable, left to the sweeper`)
  if (error instanceof BackendError && error.code === 'BUSY' && !run.accepted) return askAgainWhenBusy(error, run)
  if (run.stopReason === 'deadline') {
    if (await failTask(taskId, { errorCode: 'TIMEOUT', errorMessage: TASK_ERROR_MESSAGES.TIMEOUT, log: describe(error) }, { workerId }))
      await recordAttempt(modelId, taskId, false, 'TIMEOUT: deadline passed')
    return
  }

  const code =
    error instanceof BackendError
      ? ((error.detail as { code?: string } | undefined)?.code ?? error.code)
      : error instanceof MissingInputError
        ? 'INPUT_MISSING'
        : error instanceof StorageError
          ? 'STORAGE_FAILED'
          : 'UPSTREAM_FAILED'
  const retryable = error instanceof BackendError && error.retryable && error.code !== 'ABORTED' && !run.accepted ? error : null
  const blame = retryable ? await blameFor(retryable, run.model) : 'none'
  if (blame === 'backend') await recordBackendFailure(modelId, taskId, `${retryable!.code}: ${retryable!.message}`)
  else if (error instanceof BackendError && BACKEND_FAULTS.has(error.code) && !(error instanceof LostWithWorkerError))
    await recordTaskFailure(modelId, taskId, `${error.code}: ${error.message}`)
  if (retryable && run.attempts < run.maxAttempts) {
    // The backend failed: a pool's task moves to another instance at once, a lone
    // backend's waits (the health check brings the backend back, or the sweeper refunds).
    // The task failed: it is tried again within seconds.
    const delay =
      blame === 'backend'
        ? run.poolKey
          ? 0
          : Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (run.attempts - 1))
        : (TASK_RETRY_DELAYS_MS[run.attempts - 1] ?? TASK_RETRY_DELAYS_MS.at(-1)!)
    // An answer (5xx, garbage) means the backend dealt with the submit: the retry submits
    // again. No answer in time, or an unreadable acceptance, leaves it unknown, so the retry
    // asks the backend first.
    await requeue(taskId, workerId, {
      runAfter: new Date(Date.now() + delay),
      probeBeforeSubmit: retryable.code === 'TIMEOUT' || error instanceof ProbeFailedError || error instanceof UnreadAcceptanceError,
      backendLog: [describe(error)] as Prisma.InputJsonValue,
    })
    return
  }
  if (!(error instanceof BackendError || error instanceof MissingInputError || error instanceof StorageError))
    console.error(`[worker] task ${taskId} failed unexpectedly`, error)
  await failTask(taskId, { errorCode: code, errorMessage: userMessageOf(error, code), log: describe(error) }, { workerId })
}

/**
 * Whose failure a retryable error is. No answer (unreachable, timed out) is the
 * backend's. An error the backend answered with (a 5xx, a garbled result) is the task's
 * if the backend still answers its health check at once (say, an out-of-memory for this
 * size): one user's job must not take the backend away from everyone else.
 */
async function blameFor(error: BackendError, model: FailedRun['model']): Promise<'backend' | 'task'> {
  if (error.code === 'BUSY') return 'task'
  if (NO_ANSWER.has(error.code)) return 'backend'
  return (await backendStillAnswers(model)) ? 'task' : 'backend'
}

/** A failed attempt that was the task's; an instance failing most tasks of several users still leaves routing. */
async function recordTaskFailure(modelId: string, taskId: string, message: string): Promise<void> {
  await recordAttempt(modelId, taskId, false, message)
  if (await failsMostTasks(modelId)) await takeOutOfRouting(modelId, `多个用户的任务接连失败（${message}）`)
}

/** What the user reads: the backend's own words where it gave a reason, after what happened to the points. */
function userMessageOf(error: unknown, code: string): string {
  const summary = taskErrorMessage(code)
  if (!(error instanceof BackendError)) return summary
  if (error.userMessage) return error.userMessage
  return error.code === 'UPSTREAM_FAILED' || error.code === 'REJECTED' ? `${summary}（${error.message.slice(0, 200)}）` : summary
}

/** Back to the queue (the slot it held is free: announced), if this worker still holds it. */
async function requeue(taskId: string, workerId: string, data: Prisma.TaskUpdateManyMutationInput): Promise<void> {
  const { count } = await db().task.updateMany({
    where: { id: taskId, leaseOwner: workerId, status: 'PENDING' },
    data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null, progress: 0, ...data },
  })
  if (count > 0) await announceQueueChangeNow()
}

/**
 * The backend is busy (a proxy's queue full, HTTP 429/503): it refused the job, so the
 * attempt is given back and the task asked again after 2 s, 4 s, 8 s ... up to a minute
 * apart, never later than its deadline (where the sweeper fails it with a refund).
 */
async function askAgainWhenBusy(error: BackendError, run: FailedRun): Promise<void> {
  const last = Array.isArray(run.previousLog) ? (run.previousLog[0] as { error?: unknown; busyInARow?: unknown } | null) : null
  const busyInARow = (last?.error === 'BUSY' && typeof last.busyInARow === 'number' ? last.busyInARow : 0) + 1
  const delay = Math.min(BUSY_BACKOFF_MAX_MS, BUSY_BACKOFF_BASE_MS * 2 ** (busyInARow - 1))
  const runAfter = new Date(Math.min(Date.now() + delay, run.deadlineAt.getTime()))
  await requeue(run.taskId, run.workerId, {
    runAfter,
    attempts: { decrement: 1 },
    probeBeforeSubmit: error instanceof ProbeFailedError,
    backendLog: [{ ...describe(error), busyInARow }] as Prisma.InputJsonValue,
  })
}

/**
 * When a draining worker runs out of time: a job whose id the task keeps goes on running
 * there and another worker resumes waiting for it; any other (never sent, or accepted but
 * its id not written: markAccepted) goes back to the queue, where the next attempt first
 * probes whether the backend got it after all. Either way the workers are told, so one that
 * is idle takes it over now.
 */
async function releaseForLater(taskId: string, workerId: string): Promise<void> {
  const mine = { id: taskId, leaseOwner: workerId, status: 'PENDING' as const }
  const { count: kept } = await db().task.updateMany({ where: { ...mine, upstreamId: { not: null } }, data: { leaseOwner: null, leaseExpiresAt: null } })
  const { count: requeued } = kept
    ? { count: 0 }
    : await db().task.updateMany({
        where: { ...mine, upstreamId: null },
        data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null, probeBeforeSubmit: true },
      })
  if (kept + requeued > 0) await announceQueueChangeNow()
}

function describe(error: unknown) {
  if (error instanceof BackendError)
    return { error: error.code, message: error.message, retryable: error.retryable, detail: error.detail ?? null, at: new Date().toISOString() }
  return { error: 'INTERNAL', message: error instanceof Error ? error.message : String(error), at: new Date().toISOString() }
}

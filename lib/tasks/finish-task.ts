import 'server-only'
import { db, type Tx } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { ResultButton } from '@/lib/generation/backends/types'
import type { StoredImage } from '@/lib/generation/store-results'
import type { StoredVideo } from '@/lib/generation/store-videos'
import { postMovement } from '@/lib/ledger/post-movement'
import { announceSlotFreed, wakeLocalRunner } from '@/lib/signals/queue-signal'
import { removeFile, storedKeyOf } from '@/lib/storage/storage'

/**
 * The ways a task ends. Each is one conditional UPDATE from PENDING: whoever changes the
 * row decided the ending, and only that caller refunds (in the same transaction, with
 * ledger reference task:<id>:refund), so a task is refunded at most once however the
 * worker, the sweeper, the user and an admin race. Every ending frees a backend slot, so
 * it is announced to the workers when a task waits for one.
 */

/** What a finished job offers besides images: its buttons (Midjourney), and params with text results added (describe). */
export type CompletionExtras = { buttons?: ResultButton[]; params?: Record<string, unknown>; videos?: StoredVideo[] }

/**
 * Fewer images delivered than were paid for: the missing ones' points go back with the
 * success (ledger reference task:<id>:shortfall, booked once with the SUCCESS update).
 */
export type Shortfall = { userId: string; ordered: number; delivered: number; points: number }

/**
 * Locks a pending task's row and reads its stage and the progress preview it shows (undefined:
 * not pending, or not this worker's). A preview being saved meanwhile waits for the lock and
 * then sees the task ended, so it removes its own file: none is left behind unlinked. A claim
 * that committed just before is seen in the stage, so its run is told to stop.
 */
async function lockPending(tx: Tx, taskId: string, workerId?: string): Promise<Omit<Ended, 'id'> | undefined> {
  const rows = await tx.$queryRaw<Omit<Ended, 'id'>[]>`
    SELECT "stage"::text AS "stage", "upstreamId", "previewUrl", coalesce("leaseExpiresAt" > clock_timestamp(), false) AS "followed" FROM "Task"
    WHERE id = ${taskId} AND status = 'PENDING' AND (${workerId ?? null}::text IS NULL OR "leaseOwner" = ${workerId ?? null})
    FOR UPDATE`
  return rows[0]
}

/** SUCCESS, if this worker still holds the task (else the results are dropped). Its progress preview goes: the results replace it. */
export async function completeTask(
  taskId: string,
  workerId: string,
  results: StoredImage[],
  log: unknown,
  extras: CompletionExtras = {},
  shortfall?: Shortfall,
): Promise<boolean> {
  const completed = await db().$transaction(async (tx) => {
    const locked = await lockPending(tx, taskId, workerId)
    if (!locked) return null
    const { count } = await tx.task.updateMany({
      where: { id: taskId, status: 'PENDING', leaseOwner: workerId },
      data: {
        previewUrl: null,
        ...(extras.buttons ? { buttons: extras.buttons as unknown as Prisma.InputJsonValue } : {}),
        ...(extras.params ? { params: extras.params as Prisma.InputJsonValue } : {}),
        ...(extras.videos ? { videos: extras.videos as unknown as Prisma.InputJsonValue } : {}),
        status: 'SUCCESS',
        stage: 'DONE',
        progress: 100,
        results: results as unknown as Prisma.InputJsonValue,
        backendLog: (shortfall
          ? [log ?? null, { shortfall: { ordered: shortfall.ordered, delivered: shortfall.delivered, refundedPoints: shortfall.points } }]
          : [log ?? null]) as Prisma.InputJsonValue,
        finishedAt: new Date(),
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    })
    if (count === 0) return null
    if (shortfall && shortfall.points > 0) {
      await postMovement(tx, {
        userId: shortfall.userId,
        account: 'POINTS',
        kind: 'TASK_REFUND',
        amount: shortfall.points,
        reference: `task:${taskId}:shortfall`,
        note: `少出 ${shortfall.ordered - shortfall.delivered} 张图退还`,
      })
    }
    await announceSlotFreed(tx)
    return { preview: locked.previewUrl }
  })
  if (!completed) return false
  wakeLocalRunner()
  if (completed.preview) await removePreview(completed.preview)
  return true
}

/** Removes a progress preview's file (one putFile stored under previews/); a failure only leaves an unlinked file. */
export async function removePreview(url: string): Promise<void> {
  const key = storedKeyOf(url, 'previews')
  if (key) await removeFile(key).catch((error: unknown) => console.warn(`[tasks] could not remove the preview ${key}:`, error))
}

type Ending = { status: 'FAIL' | 'CANCELED'; errorCode: string | null; errorMessage: string | null; log?: unknown }

/** A task just ended, as it was: `followed`, a worker held it under a lease still running (it stops its own job). */
export type Ended = { id: string; stage: string; upstreamId: string | null; previewUrl: string | null; followed: boolean }

async function endAndRefund(tx: Tx, where: Prisma.TaskWhereInput, ending: Ending): Promise<Ended | null> {
  const [task] = await tx.task.findMany({
    where: { ...where, status: 'PENDING' },
    select: { id: true, userId: true, chargedPoints: true },
    take: 1,
  })
  if (!task) return null
  const locked = await lockPending(tx, task.id)
  if (!locked) return null
  const { count } = await tx.task.updateMany({
    // The caller's conditions again, now that the row is locked (a lease taken over meanwhile is not this caller's to end).
    where: { ...where, id: task.id, status: 'PENDING' },
    data: {
      status: ending.status,
      stage: 'DONE',
      errorCode: ending.errorCode,
      errorMessage: ending.errorMessage,
      cancelRequested: ending.status === 'CANCELED',
      refundedAt: task.chargedPoints > 0 ? new Date() : null,
      // Refunded means nothing was delivered: a progress preview (a Midjourney grid at 9x%) goes too.
      previewUrl: null,
      finishedAt: new Date(),
      leaseOwner: null,
      leaseExpiresAt: null,
      ...(ending.log === undefined ? {} : { backendLog: [ending.log] as Prisma.InputJsonValue }),
    },
  })
  if (count === 0) return null
  if (task.chargedPoints > 0) {
    await postMovement(tx, {
      userId: task.userId,
      account: 'POINTS',
      kind: 'TASK_REFUND',
      amount: task.chargedPoints,
      reference: `task:${task.id}:refund`,
      note: ending.status === 'CANCELED' ? '取消任务退还' : '任务失败退还',
    })
  }
  await announceSlotFreed(tx)
  return { id: task.id, ...locked }
}

/** After the end committed: the queue is woken, and the dropped preview's file removed (best effort). */
async function endedAndAnnounced(ending: Promise<Ended | null>): Promise<Ended | null> {
  const ended = await ending
  if (ended) wakeLocalRunner()
  if (ended?.previewUrl) await removePreview(ended.previewUrl)
  return ended
}

/**
 * FAIL with a refund. `workerId` limits it to the worker holding the lease; `leaseOverBy`
 * (the sweeper's) also to a lease that ran out before then, and `stillQueued` to a task no
 * worker has claimed: each checked under the row lock, so a heartbeat that renewed the lease,
 * or a claim, meanwhile keeps the task running.
 */
export function failTask(taskId: string, ending: Omit<Ending, 'status'>, only: { workerId?: string; leaseOverBy?: Date; stillQueued?: boolean } = {}) {
  const { workerId, leaseOverBy, stillQueued } = only
  const where: Prisma.TaskWhereInput = {
    id: taskId,
    ...(workerId ? { leaseOwner: workerId } : {}),
    ...(leaseOverBy ? { leaseExpiresAt: { lt: leaseOverBy } } : {}),
    ...(stillQueued ? { stage: 'QUEUED' } : {}),
  }
  return endedAndAnnounced(db().$transaction((tx) => endAndRefund(tx, where, { ...ending, status: 'FAIL' })))
}

/**
 * CANCELED with a refund; `userId` limits it to the owner's tasks. `alsoInTx` runs in the same
 * transaction when this call ended the task (an admin's audit record). Returns the stage it
 * was cancelled in.
 */
export function cancelPendingTask(taskId: string, by: { userId?: string; reason: string | null; code?: string }, alsoInTx?: (tx: Tx) => Promise<unknown>) {
  return endedAndAnnounced(
    db().$transaction(async (tx) => {
      const ended = await endAndRefund(
        tx,
        { id: taskId, ...(by.userId ? { userId: by.userId } : {}) },
        { status: 'CANCELED', errorCode: by.code ?? null, errorMessage: by.reason },
      )
      if (ended && alsoInTx) await alsoInTx(tx)
      return ended
    }),
  )
}

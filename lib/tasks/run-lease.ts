import 'server-only'
import { db } from '@/lib/db'
import type { RunContext } from '@/lib/generation/backends/types'
import { storePreview } from '@/lib/generation/store-results'
import { onTaskNudge } from '@/lib/signals/task-nudges'
import { leaseMs } from './claim-task'
import { removePreview } from './finish-task'

const PROGRESS_WRITE_MS = 1_000

/** Runs in this process by task id, so a cancel signal can stop one at once. */
export const activeRuns = new Map<string, () => void>()

/** Why a run stopped early, from the worker's point of view. */
export type StopReason = 'deadline' | 'ended-elsewhere' | 'shutdown'

export type Lease = {
  /** What the adapter runs with: the stop signal, progress, previews and nudges. */
  ctx: RunContext
  /** Why the run was stopped, if it was. */
  stopReason(): StopReason | null
  /** Stops the heartbeat, the deadline timer and the listeners (the lease row stays until the task is settled). */
  end(): void
}

/**
 * Holds a claimed task's lease while it runs: a heartbeat renews it every quarter of the lease, writes the
 * progress at most once a second and notices when the task ended elsewhere (cancelled,
 * timed out, taken over). The deadline, a cancel signal and the worker's shutdown stop the run.
 */
export function holdLease(task: { id: string; deadlineAt: Date; previewUrl: string | null }, workerId: string, shutdown: AbortSignal): Lease {
  const stop = new AbortController()
  let stopReason: StopReason | null = null
  const stopWith = (reason: StopReason) => {
    stopReason ??= reason
    stop.abort()
  }
  const onShutdown = () => stopWith('shutdown')
  shutdown.addEventListener('abort', onShutdown)
  activeRuns.set(task.id, () => stopWith('ended-elsewhere'))
  const deadline = setTimeout(() => stopWith('deadline'), Math.max(0, task.deadlineAt.getTime() - Date.now()))

  const lease = leaseMs()
  let progress = 0
  let writtenProgress = 0
  let lastWrite = 0
  const heartbeat = async () => {
    const shouldWrite = progress !== writtenProgress && Date.now() - lastWrite >= PROGRESS_WRITE_MS
    // The database's clock, as the claim's and the sweeper's: a worker whose clock runs behind would otherwise lose live tasks.
    const count = await db().$executeRaw`
      UPDATE "Task" SET "leaseExpiresAt" = now() + ${`${lease} milliseconds`}::interval, "progress" = COALESCE(${shouldWrite ? progress : null}::int4, "progress"),
        "updatedAt" = now()
      WHERE "id" = ${task.id} AND "leaseOwner" = ${workerId} AND "status" = 'PENDING'`
    if (shouldWrite) {
      writtenProgress = progress
      lastWrite = Date.now()
    }
    if (count === 0) stopWith('ended-elsewhere') // cancelled, timed out or taken over
  }
  const beat = setInterval(() => void heartbeat().catch(() => undefined), lease / 4)
  let previews = 0
  let isSavingPreview = false
  /** The preview the task shows now (an earlier run's at first); its file goes when a newer one replaces it. */
  let shownPreview: string | null = task.previewUrl
  const ctx: RunContext = {
    signal: stop.signal,
    onProgress(p: number) {
      progress = Math.max(progress, Math.min(99, Math.round(p)))
      if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) void heartbeat().catch(() => undefined)
    },
    onPreview(image: Buffer) {
      // Best effort, one at a time: a preview arriving while one is saved is skipped, the next one will do.
      if (isSavingPreview) return
      isSavingPreview = true
      void storePreview(task.id, ++previews, image)
        .then(async (url) => {
          const { count } = await db().task.updateMany({ where: { id: task.id, leaseOwner: workerId, status: 'PENDING' }, data: { previewUrl: url } })
          // Not shown (the task ended or moved on meanwhile), or shown instead of the last one: that file is garbage.
          const unused = count === 0 ? url : shownPreview
          if (count > 0) shownPreview = url
          if (unused) await removePreview(unused)
        })
        .catch(() => undefined)
        .finally(() => (isSavingPreview = false))
    },
    onNudge: (listener) => onTaskNudge(task.id, listener),
  }

  return {
    ctx,
    stopReason: () => stopReason,
    end() {
      clearInterval(beat)
      clearTimeout(deadline)
      shutdown.removeEventListener('abort', onShutdown)
      activeRuns.delete(task.id)
    },
  }
}

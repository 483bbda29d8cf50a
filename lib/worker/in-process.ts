import { startBackgroundWorker, type RunningWorker } from './background-worker'
import { backgroundJobs } from './jobs'

const holder = globalThis as unknown as { aiimgWorker?: RunningWorker }

/** The worker inside the web process (embedded default): started once, woken by name. */
export function startInProcessWorker(): RunningWorker {
  holder.aiimgWorker ??= startBackgroundWorker(backgroundJobs())
  return holder.aiimgWorker
}

/** Wakes a job of the in-process worker, if this process runs one (others poll). */
export function wakeInProcessJob(name: string): void {
  holder.aiimgWorker?.wake(name)
}

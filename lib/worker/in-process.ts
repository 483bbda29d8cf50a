import type { RunningWorker } from './background-worker'

const holder = globalThis as unknown as { aiimgWorker?: RunningWorker }

/** The worker inside the web process (embedded default): started once, woken by name. */
export async function startInProcessWorker(): Promise<RunningWorker> {
  if (!holder.aiimgWorker) {
    const { startWorker } = await import('./start-worker')
    holder.aiimgWorker ??= startWorker()
  }
  return holder.aiimgWorker
}

/** Wakes a job of the in-process worker, if this process runs one. */
export function wakeInProcessJob(name: string): void {
  holder.aiimgWorker?.wake(name)
}

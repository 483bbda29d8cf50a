import { localWorker, setLocalWorker } from '@/lib/signals/local-worker'
import type { RunningWorker } from './background-worker'

/** The worker inside the web process (embedded default): started once, woken by name through lib/signals. */
export async function startInProcessWorker(): Promise<RunningWorker> {
  const running = localWorker()
  if (running) return running
  const { startWorker } = await import('./start-worker')
  // Another caller may have started it while this one imported.
  if (!localWorker()) setLocalWorker(startWorker())
  return localWorker()!
}

import { env } from '@/lib/env'
import { startBackgroundWorker, type RunningWorker } from './background-worker'
import { listenForJobs } from './job-signal'
import { backgroundJobs } from './jobs'

/** All background jobs, woken early by LISTEN/NOTIFY signals from other processes. */
export function startWorker(): RunningWorker {
  const worker = startBackgroundWorker(backgroundJobs())
  const stopListening = listenForJobs(env().DATABASE_URL, (name) => worker.wake(name))
  return {
    wake: worker.wake,
    async stop() {
      await stopListening()
      await worker.stop()
    },
  }
}

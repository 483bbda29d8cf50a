import { env } from '@/lib/env'
import { listenForJobs } from '@/lib/signals/listen'
import { RUN_TASKS_JOB } from '@/lib/signals/queue-signal'
import { CANCEL_SIGNAL_PREFIX } from '@/lib/signals/task-cancel'
import { NUDGE_SIGNAL_PREFIX, nudgeTask } from '@/lib/signals/task-nudges'
import { activeRuns } from '@/lib/tasks/run-lease'
import { startTaskRunner } from '@/lib/tasks/task-runner'
import { startBackgroundWorker, type RunningWorker } from './background-worker'
import { backgroundJobs } from './jobs'

/**
 * The worker: the generation task runner plus the periodic jobs, woken early by
 * LISTEN/NOTIFY signals from any process (and directly inside this one).
 */
export function startWorker(): RunningWorker {
  const { DATABASE_URL, WORKER_TASK_SLOTS, WORKER_DRAIN_SECONDS } = env()
  const jobs = startBackgroundWorker(backgroundJobs())
  const runner = startTaskRunner(WORKER_TASK_SLOTS)
  const wake = (name: string) => {
    if (name === RUN_TASKS_JOB) runner.wake()
    else if (name.startsWith(CANCEL_SIGNAL_PREFIX)) activeRuns.get(name.slice(CANCEL_SIGNAL_PREFIX.length))?.()
    else if (name.startsWith(NUDGE_SIGNAL_PREFIX)) nudgeTask(name.slice(NUDGE_SIGNAL_PREFIX.length))
    else jobs.wake(name)
  }
  const stopListening = listenForJobs(DATABASE_URL, wake)
  return {
    wake,
    async stop() {
      // Still listening while the running tasks drain, so a cancel meanwhile stops its run at once.
      await runner.stop(WORKER_DRAIN_SECONDS * 1000)
      await stopListening()
      await jobs.stop()
    },
  }
}

import { isDatabaseUnavailable } from '@/lib/http/database-unavailable'

/**
 * Runs the app's background jobs in a loop each: a job runs, then sleeps for its
 * interval unless woken early. Used by `npm run worker` and, for the embedded default,
 * inside the web process. Jobs must be safe to run in many processes at once (they
 * claim work in the database), so any number of workers may run.
 */
export type BackgroundJob = {
  name: string
  intervalMs: number
  /** Returns true when it did work and should run again at once (a backlog). */
  run(): Promise<boolean | void>
}

/** The stack, except when the database is out of reach: then every job fails each round the same way, and one line says it. */
function describe(error: unknown): string {
  if (isDatabaseUnavailable(error))
    return `database unavailable: ${String((error as { message?: unknown }).message ?? error)
      .trim()
      .split('\n')
      .at(-1)}`
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}

export type RunningWorker = { wake(name: string): void; stop(): Promise<void> }

export function startBackgroundWorker(jobs: BackgroundJob[], log: (message: string) => void = console.log): RunningWorker {
  let stopped = false
  const wakers = new Map<string, () => void>()
  /** Jobs woken while they ran: what woke them may have come after the run looked, so they run again at once. */
  const wokenWhileRunning = new Set<string>()

  const loop = async (job: BackgroundJob) => {
    while (!stopped) {
      let again = false
      wakers.delete(job.name)
      wokenWhileRunning.delete(job.name)
      try {
        again = (await job.run()) === true
      } catch (error) {
        log(`[worker] ${job.name} failed: ${describe(error)}`)
      }
      if (stopped) break
      if (!again && !wokenWhileRunning.has(job.name)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, job.intervalMs)
          wakers.set(job.name, () => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
    }
  }

  const loops = jobs.map(loop)
  log(`[worker] started: ${jobs.map((j) => j.name).join(', ')}`)
  return {
    wake(name) {
      const wake = wakers.get(name)
      if (wake) wake()
      else if (jobs.some((job) => job.name === name)) wokenWhileRunning.add(name)
    },
    async stop() {
      stopped = true
      wakers.forEach((wake) => wake())
      await Promise.all(loops)
      log('[worker] stopped')
    },
  }
}

import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { claimTask, nextDueAt } from './claim-task'
import { runTask } from './run-task'

export type TaskRunner = { wake(): void; stop(drainMs: number): Promise<void>; readonly running: number }

/** Idle workers look at the queue this often even without a signal (a missed NOTIFY). */
const IDLE_CHECK_MS = 60_000

/**
 * Runs up to `slots` tasks at once in this process. Woken by a signal (a task was
 * queued, a slot freed), it claims until it is full or the queue has nothing it may
 * take; otherwise it sleeps until the next backoff is due, so an idle worker makes
 * almost no queries. stop() drains: no new claims, running tasks get `drainMs` to end,
 * then the rest are released for other workers.
 */
export function startTaskRunner(slots: number, log: (m: string) => void = console.log): TaskRunner {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<void>>()
  let stopping = false
  let filling = false
  let again = false
  let timer: NodeJS.Timeout | undefined

  const fill = async () => {
    if (filling) return void (again = true)
    filling = true
    try {
      do {
        again = false
        while (!stopping && inFlight.size < slots) {
          const claimed = await claimTask(workerId)
          if (!claimed) break
          const run: Promise<void> = runTask(claimed, workerId, shutdown.signal)
            .catch((error) => log(`[worker] task ${claimed.id} crashed: ${error instanceof Error ? error.stack : error}`))
            .finally(() => {
              inFlight.delete(run)
              wake()
            })
          inFlight.add(run)
        }
      } while (again && !stopping)
      await scheduleIdleCheck()
    } catch (error) {
      log(`[worker] claiming tasks failed: ${error instanceof Error ? error.message : error}`)
      timer = setTimeout(wake, 5_000)
    } finally {
      filling = false
    }
  }

  const scheduleIdleCheck = async () => {
    clearTimeout(timer)
    if (stopping) return
    const due = inFlight.size < slots ? await nextDueAt() : null
    const wait = due ? Math.max(250, Math.min(IDLE_CHECK_MS, due.getTime() - Date.now())) : IDLE_CHECK_MS
    timer = setTimeout(wake, wait)
  }

  const wake = () => void fill()
  log(`[worker] task runner ${workerId} with ${slots} slots`)
  wake()

  return {
    wake,
    get running() {
      return inFlight.size
    },
    async stop(drainMs) {
      stopping = true
      clearTimeout(timer)
      const drained = Promise.all(inFlight)
      const timeout = new Promise((resolve) => setTimeout(resolve, drainMs).unref())
      if ((await Promise.race([drained.then(() => 'drained'), timeout])) !== 'drained') {
        log(`[worker] releasing ${inFlight.size} unfinished task(s) for other workers`)
        shutdown.abort()
        await drained
      }
    },
  }
}

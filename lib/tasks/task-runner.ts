import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { claimNext } from './claim-task'
import { runTask } from './run-task'

export type TaskRunner = { wake(): void; stop(drainMs: number): Promise<void>; readonly running: number }

/** Idle workers look at the queue this often even without a signal (a missed NOTIFY). */
const IDLE_CHECK_MS = 60_000
/** After finding only rows other claimers held: look again this soon (plus jitter, so rivals do not collide again). */
const CONTENDED_RETRY_MS = 20

/**
 * Runs up to `slots` tasks at once in this process. Woken by a signal (a task was
 * queued or released, a task ended and freed a slot, a backend came back), it claims
 * until it is full or the queue has nothing it may take. Then it sleeps until the next
 * backoff is due or the next signal: tasks that wait for a full or unhealthy backend are
 * not polled. Only when other claimers held the rows it wanted does it look again soon.
 * stop() drains: no new claims, running tasks get `drainMs` to end, then the rest are
 * released for other workers.
 */
export function startTaskRunner(slots: number, log: (m: string) => void = console.log): TaskRunner {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<void>>()
  let stopping = false
  let filling = false
  let again = false
  let timer: NodeJS.Timeout | undefined
  // The fill under way: a claim it is waiting for may still bring a task, which stop() must drain too.
  let filled: Promise<void> = Promise.resolve()

  const fill = async () => {
    filling = true
    let idle: { contended: boolean; nextDueAt: Date | null } | null = null
    try {
      do {
        again = false
        idle = null
        while (!stopping && inFlight.size < slots) {
          const outcome = await claimNext(workerId)
          if (!outcome.task) {
            idle = outcome
            break
          }
          const claimed = outcome.task
          const run: Promise<void> = runTask(claimed, workerId, shutdown.signal)
            .catch((error) => log(`[worker] task ${claimed.id} crashed: ${error instanceof Error ? error.stack : error}`))
            .finally(() => {
              inFlight.delete(run)
              wake()
            })
          inFlight.add(run)
        }
      } while (again && !stopping)
      scheduleNextLook(idle)
    } catch (error) {
      log(`[worker] claiming tasks failed: ${error instanceof Error ? error.message : error}`)
      again = false
      timer = setTimeout(wake, 5_000)
    } finally {
      filling = false
      // A signal that came while the next look was being scheduled must not be lost.
      if (again && !stopping) wake()
    }
  }

  /** After a fill: `idle` is what the last claim found when it found nothing (null: we are full or stopping). */
  const scheduleNextLook = (idle: { contended: boolean; nextDueAt: Date | null } | null) => {
    clearTimeout(timer)
    if (stopping) return
    // Full: the end of one of our own tasks wakes us.
    if (!idle) return void (timer = setTimeout(wake, IDLE_CHECK_MS))
    if (idle.contended) return void (timer = setTimeout(wake, CONTENDED_RETRY_MS + Math.random() * CONTENDED_RETRY_MS))
    const due = idle.nextDueAt
    const wait = due ? Math.max(10, Math.min(IDLE_CHECK_MS, due.getTime() - Date.now() + 5)) : IDLE_CHECK_MS
    timer = setTimeout(wake, wait)
  }

  const wake = () => {
    if (filling) return void (again = true)
    filled = fill()
  }
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
      await filled
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

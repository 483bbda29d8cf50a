import { abortError } from './http'
import type { MjTask } from './mj-task'

/** Polls after a nudge come no closer together than this (a burst of duplicate callbacks). */
const MIN_GAP_MS = 200

type Waiter = { id: string; resolve(task: MjTask | null): void; reject(error: unknown): void }

/**
 * One poller per proxy: every task waiting on it joins the next list-by-condition call, so
 * N running jobs cost one request per interval, not N. A nudge (the proxy's callback said
 * the job changed) brings that call forward.
 */
export class TaskPoller {
  private waiters: Waiter[] = []
  private readonly nudged = new Set<string>()
  private timer: NodeJS.Timeout | null = null
  private timerDue = 0
  private isPolling = false
  private lastPollAt = 0

  constructor(
    private readonly load: (ids: string[]) => Promise<MjTask[]>,
    private readonly intervalMs: number,
  ) {}

  /** The task as the next poll sees it; null when the proxy does not know the id. */
  next(id: string, signal: AbortSignal): Promise<MjTask | null> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(abortError(signal))
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(abortError(signal))
      }
      const settle = () => signal.removeEventListener('abort', onAbort)
      const waiter: Waiter = { id, resolve: (task) => (settle(), resolve(task)), reject: (error) => (settle(), reject(error)) }
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiters.push(waiter)
      this.schedule(this.nudged.has(id) ? MIN_GAP_MS : this.intervalMs)
    })
  }

  /** The job changed: poll it soon (now, or right after the poll in flight). */
  nudge(id: string): void {
    this.nudged.add(id)
    if (this.waiters.some((w) => w.id === id)) this.schedule(MIN_GAP_MS)
  }

  /** A wait ended: drop what is remembered about its id. */
  forget(id: string): void {
    this.nudged.delete(id)
  }

  private schedule(gapMs: number): void {
    if (this.isPolling) return // the poll in flight reschedules when it ends
    const due = Math.max(Date.now(), this.lastPollAt + gapMs)
    if (this.timer && this.timerDue <= due) return
    if (this.timer) clearTimeout(this.timer)
    this.timerDue = due
    this.timer = setTimeout(() => void this.poll(), due - Date.now())
    this.timer.unref?.()
  }

  private async poll(): Promise<void> {
    this.timer = null
    if (this.waiters.length === 0) return // every waiter gave up (aborted) before its poll
    this.isPolling = true
    this.lastPollAt = Date.now()
    const batch = this.waiters.splice(0)
    const ids = [...new Set(batch.map((w) => w.id))]
    for (const id of ids) this.nudged.delete(id)
    try {
      const tasks = new Map((await this.load(ids)).map((t) => [t.id, t]))
      for (const waiter of batch) waiter.resolve(tasks.get(waiter.id) ?? null)
    } catch (error) {
      for (const waiter of batch) waiter.reject(error)
    } finally {
      this.isPolling = false
      // Waiters that came (or were nudged) during the poll, and the ones just answered once they ask again.
      if (this.waiters.length) this.schedule(this.waiters.some((w) => this.nudged.has(w.id)) ? MIN_GAP_MS : this.intervalMs)
    }
  }
}

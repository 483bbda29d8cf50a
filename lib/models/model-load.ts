/**
 * What /admin/model_mana shows of an instance's work. A queued task of a pool waits for
 * the pool (any healthy member may take it), so it is counted once per pool, not on the
 * member the user happened to pick; running tasks are counted on the instance running them.
 */
export type ModelLoad = {
  /** Queued tasks only this instance can run (a lone model, or a button pinned to its parent's instance). */
  queued: number
  /** Queued tasks of this instance's pool; null without a pool. */
  poolQueued: number | null
  /** Tasks this instance is submitting or running now. */
  running: number
  /** The last hour's runs on this instance (BackendAttempt): every try counts where it happened, a failed-over task included. */
  recentAttempts: number
  recentFailures: number
}

export const NO_LOAD: ModelLoad = { queued: 0, poolQueued: null, running: 0, recentAttempts: 0, recentFailures: 0 }

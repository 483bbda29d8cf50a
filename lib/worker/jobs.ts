import { pruneExpiredCounters } from '@/lib/auth/rate-limit'
import type { BackgroundJob } from './background-worker'

/** Every background job of the app. Features add theirs here. */
export function backgroundJobs(): BackgroundJob[] {
  return [
    {
      name: 'prune-rate-limits',
      intervalMs: 10 * 60_000,
      run: async () => {
        await pruneExpiredCounters()
      },
    },
  ]
}

import { PRUNE_SIGN_IN_JOB, pruneSignInRecords } from '@/lib/auth/prune-sign-in-records'
import { pruneExpiredCounters } from '@/lib/auth/rate-limit'
import { COMPACT_COUNTS_JOB, COMPACT_HOUR_TOTALS_JOB, compactCounts, compactHourTotals } from '@/lib/db/compact-counts'
import { env } from '@/lib/env'
import { CHECK_CARDS_JOB, checkPendingCards } from '@/lib/cards/check-pending-cards'
import { SWEEP_CHAT_ANSWERS_JOB, sweepChatAnswers } from '@/lib/chat/drop-answer'
import { PRUNE_BACKEND_ATTEMPTS_JOB, pruneBackendAttempts } from '@/lib/models/backend-attempts'
import { CHECK_BACKENDS_JOB, checkBackends } from '@/lib/models/backend-health'
import { RECONCILE_BATCH, RECONCILE_INTERVAL_MS, RECONCILE_ORDERS_JOB, reconcileOrders } from '@/lib/payments/reconcile-orders'
import { RETRY_REFUNDS_JOB, retryRefunds } from '@/lib/payments/retry-refunds'
import { SWEEP_TASKS_JOB, sweepIntervalMs, sweepTasks } from '@/lib/tasks/sweep-tasks'
import { PRUNE_VIDEO_UPLOADS_JOB, pruneStaleUploads } from '@/lib/videos/chunked-upload'
import type { BackgroundJob } from './background-worker'

/** Every background job of the app. Features add theirs here. */
export function backgroundJobs(): BackgroundJob[] {
  return [
    // Woken by each import; the interval only catches work left by a crash.
    { name: CHECK_CARDS_JOB, intervalMs: 60_000, run: checkPendingCards },
    // Expired leases, deadlines and tasks stranded on an out backend: three indexed queries every half lease (30 s) when all is well.
    { name: SWEEP_TASKS_JOB, intervalMs: sweepIntervalMs(), run: sweepTasks },
    // Pending provider orders whose active query is due (lost notifications), and expired ones to close;
    // a full batch runs again at once, so a backlog drains at the providers' pace, not 20 per interval.
    { name: RECONCILE_ORDERS_JOB, intervalMs: RECONCILE_INTERVAL_MS, run: async () => (await reconcileOrders()) === RECONCILE_BATCH },
    // Refunds the provider has not yet confirmed nor refused: asked again a minute after the last asking.
    { name: RETRY_REFUNDS_JOB, intervalMs: 30_000, run: async () => void (await retryRefunds()) },
    // Chat answers a crashed web process left without text: refunded (one indexed query a minute).
    { name: SWEEP_CHAT_ANSWERS_JOB, intervalMs: 60_000, run: async () => void (await sweepChatAnswers()) },
    // One health or model-list request per enabled backend every BACKEND_CHECK_SECONDS (a minute).
    { name: CHECK_BACKENDS_JOB, intervalMs: env().BACKEND_CHECK_SECONDS * 1000, run: checkBackends },
    // The console lists' kept totals: each key's deltas folded into one row (a few small statements).
    { name: COMPACT_COUNTS_JOB, intervalMs: 60_000, run: () => compactCounts() },
    // Chat usage's hour totals, the same way, hourly.
    { name: COMPACT_HOUR_TOTALS_JOB, intervalMs: 60 * 60_000, run: compactHourTotals },
    { name: PRUNE_BACKEND_ATTEMPTS_JOB, intervalMs: 60 * 60_000, run: async () => void (await pruneBackendAttempts()) },
    {
      name: 'prune-rate-limits',
      intervalMs: 10 * 60_000,
      run: async () => {
        await pruneExpiredCounters()
      },
    },
    // Video uploads abandoned for a day: their part files (or bucket objects) go.
    { name: PRUNE_VIDEO_UPLOADS_JOB, intervalMs: 60 * 60_000, run: async () => void (await pruneStaleUploads()) },
    // Used-up WeChat states, QR tickets and SMS codes: three deletes on small tables.
    {
      name: PRUNE_SIGN_IN_JOB,
      intervalMs: 30 * 60_000,
      run: async () => {
        await pruneSignInRecords()
      },
    },
  ]
}

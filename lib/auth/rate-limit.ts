import { db } from '@/lib/db'
import { tooManyRequests } from '@/lib/http/app-error'

export type Limit = { key: string; max: number; windowSeconds: number }

/**
 * Counts one event against a fixed-window counter in PostgreSQL (so every process
 * shares it and restarts keep it) and returns the count in the current window.
 */
export async function countEvent({ key, windowSeconds }: Limit): Promise<{ count: number; resetAt: Date }> {
  const rows = await db().$queryRaw<{ count: number; resetAt: Date }[]>`
    INSERT INTO "RateLimitCounter" ("key", "count", "resetAt")
    VALUES (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
    ON CONFLICT ("key") DO UPDATE SET
      "count"   = CASE WHEN "RateLimitCounter"."resetAt" <= now() THEN 1 ELSE "RateLimitCounter"."count" + 1 END,
      "resetAt" = CASE WHEN "RateLimitCounter"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "RateLimitCounter"."resetAt" END
    RETURNING "count", "resetAt"`
  return rows[0]
}

/**
 * Takes one attempt from each limit before the guarded work runs, atomically, so
 * attempts sent at the same moment cannot all slip under the limit. Throws 429 saying
 * when to retry if any limit is used up. `release` gives an attempt back when its
 * outcome should not count (a successful login, a race lost fairly).
 */
export async function takeAttempt(limits: Limit[], what: string): Promise<{ release(): Promise<void> }> {
  const counted = await Promise.all(limits.map(async (limit) => ({ limit, ...(await countEvent(limit)) })))
  const over = counted.find((c) => c.count > c.limit.max)
  if (over) throw tooManyRequests(`${what}过于频繁，请 ${waitText(over.resetAt)} 后再试`)
  return {
    async release() {
      const keys = limits.map((l) => l.key)
      await db().$executeRaw`UPDATE "RateLimitCounter" SET "count" = GREATEST("count" - 1, 0) WHERE "key" = ANY(${keys}::text[])`
    },
  }
}

export async function clearCounter(key: string): Promise<void> {
  await db().rateLimitCounter.deleteMany({ where: { key } })
}

/** Removes windows that ended (run by the worker's housekeeping). */
export async function pruneExpiredCounters(): Promise<number> {
  const { count } = await db().rateLimitCounter.deleteMany({ where: { resetAt: { lte: new Date() } } })
  return count
}

function waitText(resetAt: Date): string {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000))
  return seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`
}

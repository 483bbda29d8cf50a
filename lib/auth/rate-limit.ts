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

/** How many events the window holds now, without counting one. */
export async function peekCount({ key }: Limit): Promise<{ count: number; resetAt: Date | null }> {
  const row = await db().rateLimitCounter.findUnique({ where: { key } })
  if (!row || row.resetAt <= new Date()) return { count: 0, resetAt: null }
  return { count: row.count, resetAt: row.resetAt }
}

/** Throws 429 with a message saying when to retry if any of the limits is already used up. */
export async function assertUnderLimits(limits: Limit[], what: string): Promise<void> {
  for (const limit of limits) {
    const { count, resetAt } = await peekCount(limit)
    if (count >= limit.max && resetAt) throw tooManyRequests(`${what}过于频繁，请 ${waitText(resetAt)} 后再试`)
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

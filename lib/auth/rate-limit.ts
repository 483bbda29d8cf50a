import 'server-only'
import { db, type Tx } from '@/lib/db'
import { tooManyRequests } from '@/lib/http/app-error'

export type Limit = { key: string; max: number; windowSeconds: number }

/**
 * Counts one event against each limit's fixed-window counter in PostgreSQL (so every
 * process shares them and restarts keep them), all in one statement.
 *
 * Lock order: every statement that locks several counter rows takes them in ascending
 * key order (COLLATE "C", the same in every database), so requests sharing keys (one
 * account from many addresses, one address for many accounts) wait for each other but
 * never deadlock. The upsert locks rows in the order its SELECT delivers them.
 */
async function countEvents(limits: Limit[], client: Tx = db()): Promise<Array<{ limit: Limit; count: number; resetAt: Date }>> {
  const rows = await client.$queryRaw<{ key: string; count: number; resetAt: Date }[]>`
    INSERT INTO "RateLimitCounter" ("key", "count", "resetAt")
    SELECT k, 1, now() + make_interval(secs => w) FROM unnest(${limits.map((l) => l.key)}::text[], ${limits.map((l) => l.windowSeconds)}::int[]) AS t(k, w)
    ORDER BY k COLLATE "C"
    ON CONFLICT ("key") DO UPDATE SET
      "count"   = CASE WHEN "RateLimitCounter"."resetAt" <= now() THEN 1 ELSE "RateLimitCounter"."count" + 1 END,
      "resetAt" = CASE WHEN "RateLimitCounter"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "RateLimitCounter"."resetAt" END
    RETURNING "key", "count", "resetAt"`
  const byKey = new Map(rows.map((r) => [r.key, r]))
  return limits.map((limit) => ({ limit, count: byKey.get(limit.key)!.count, resetAt: byKey.get(limit.key)!.resetAt }))
}

/**
 * Takes one attempt from each limit before the guarded work runs, atomically, so
 * attempts sent at the same moment cannot all slip under the limit. Throws 429 saying
 * when to retry if any limit is used up. `release` gives an attempt back when its
 * outcome should not count (a successful login, a race lost fairly).
 */
export async function takeAttempt(limits: Limit[], what: string): Promise<{ release(): Promise<void> }> {
  const counted = await countEvents(limits)
  const release = () => giveBack(limits.map((l) => l.key))
  const over = counted.find((c) => c.count > c.limit.max)
  if (over) {
    // A refused attempt did not happen: it does not count either.
    await release()
    throw tooManyRequests(`${what}过于频繁，请 ${waitText(over.resetAt)} 后再试`)
  }
  return { release }
}

/** Counts one event against `limit` and answers whether it is still within it (for work that is skipped, not refused, past a limit). */
export async function countWithin(limit: Limit): Promise<boolean> {
  const [counted] = await countEvents([limit])
  return counted!.count <= limit.max
}

/** Locks the rows in key order first (see countEvents): a plain UPDATE locks them in scan order. */
async function giveBack(keys: string[]): Promise<void> {
  await db().$executeRaw`
    UPDATE "RateLimitCounter" AS c SET "count" = GREATEST(c."count" - 1, 0)
    FROM (SELECT "key" FROM "RateLimitCounter" WHERE "key" = ANY(${keys}::text[]) ORDER BY "key" COLLATE "C" FOR UPDATE) AS locked
    WHERE c."key" = locked."key"`
}

/**
 * For work that only counts failures: inside the caller's transaction, takes a lock per
 * limit key (so one user's or one address's attempts run one at a time and cannot slip
 * under the limit together), then refuses with 429 if a limit is used up. Call
 * `countFailure` in the same transaction when the attempt turns out to be one.
 */
export async function lockAndCheckLimits(tx: Tx, limits: Limit[], what: string): Promise<void> {
  // In the order of the lock ids themselves, so even two keys sharing a hash cannot deadlock.
  await tx.$executeRaw`
    SELECT pg_advisory_xact_lock(id) FROM (SELECT DISTINCT hashtextextended(k, 0) AS id FROM unnest(${limits.map((l) => l.key)}::text[]) AS k) AS ids
    ORDER BY id`
  const rows = await tx.rateLimitCounter.findMany({ where: { key: { in: limits.map((l) => l.key) }, resetAt: { gt: new Date() } } })
  for (const limit of limits) {
    const row = rows.find((r) => r.key === limit.key)
    if (row && row.count >= limit.max) throw tooManyRequests(`${what}过于频繁，请 ${waitText(row.resetAt)} 后再试`)
  }
}

/** The last call holding each key in this process (on globalThis: Next.js gives each route its own modules). */
const turns = ((globalThis as unknown as { aiimgLimitTurns?: Map<string, Promise<void>> }).aiimgLimitTurns ??= new Map())

/**
 * Runs `work` once every earlier call of this process sharing one of `limits`' keys has ended.
 * Meant around the transaction that calls lockAndCheckLimits: a burst from one address then
 * waits here, in memory, instead of in the database, where each waiting attempt would hold a
 * pooled connection until the pool ran dry and every other request of the site waited behind
 * the burst. The advisory locks still order calls of other processes.
 */
export async function inTurn<T>(limits: Limit[], work: () => Promise<T>): Promise<T> {
  const keys = [...new Set(limits.map((l) => l.key))]
  const earlier = keys.map((k) => turns.get(k)).filter((p): p is Promise<void> => p !== undefined)
  let finish!: () => void
  const mine = new Promise<void>((resolve) => (finish = resolve))
  for (const key of keys) turns.set(key, mine)
  try {
    await Promise.all(earlier)
    return await work()
  } finally {
    finish()
    for (const key of keys) if (turns.get(key) === mine) turns.delete(key)
  }
}

export async function countFailure(tx: Tx, limits: Limit[]): Promise<void> {
  await countEvents(limits, tx)
}

export async function clearCounter(key: string): Promise<void> {
  await db().rateLimitCounter.deleteMany({ where: { key } })
}

/** Removes windows that ended (run by the worker's housekeeping). */
export async function pruneExpiredCounters(): Promise<number> {
  // Skips rows a request holds (it is about to restart their window), instead of locking
  // many rows in scan order against requests that lock in key order.
  return db().$executeRaw`
    DELETE FROM "RateLimitCounter" WHERE "key" IN (
      SELECT "key" FROM "RateLimitCounter" WHERE "resetAt" <= now() FOR UPDATE SKIP LOCKED)`
}

function waitText(resetAt: Date): string {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000))
  return seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`
}

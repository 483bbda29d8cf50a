import 'server-only'
import { env } from '@/lib/env'
import type { Role } from '@/lib/generated/prisma/enums'
import { cacheTtlMs, listenedCache } from '@/lib/signals/listened-cache'

/**
 * What a request needs to know about its signed-in user, kept briefly per process so that
 * an authenticated read costs no database round trip for the caller (docs/RELIABILITY.md,
 * "Speed"). Every change that matters to a session (role, ban, token version, name,
 * username, deletion) makes a trigger on "User" send the user's id on SESSION_CHANNEL
 * when it commits; each web process drops that user on receipt. The process that made the
 * change also drops it itself right after the commit (`forgetSessionUser`), so its very
 * next request reads the row again. How the cache stays right otherwise: ListenedCache.
 */
export const SESSION_CHANNEL = 'aiimg_session_users'

export type CachedSessionRow = { id: string; username: string; name: string; role: Role; tokenVersion: number; bannedAt: Date | null }

const users = () =>
  listenedCache<CachedSessionRow | null>({
    channel: SESSION_CHANNEL,
    maxEntries: 50_000,
    ttlMs: () => cacheTtlMs(env().SESSION_CACHE_SECONDS, 10),
    onSignal: (id, cache) => cache.forget(id),
  })

/**
 * The user's row from the cache, or from `load`. `null` rows (a deleted user) are cached
 * too: a stale token must not cost a query.
 */
export function cachedSessionRow(id: string, load: () => Promise<CachedSessionRow | null>): Promise<CachedSessionRow | null> {
  return users().get(id, load)
}

/** Drops a user so the next request reads their row again (call after the change commits). */
export function forgetSessionUser(id: string): void {
  users().forget(id)
}

/** Ends the listener (tests; a process that stops); the next lookup starts it again. */
export function stopSessionCache(): Promise<void> {
  return users().stop()
}

/** For tests: whether the cache is in use in this process now. */
export function sessionCacheActive(): boolean {
  return users().active()
}

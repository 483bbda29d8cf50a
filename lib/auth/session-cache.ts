import 'server-only'
import { env } from '@/lib/env'
import type { Role } from '@/lib/generated/prisma/enums'
import { listenOnChannel } from '@/lib/signals/listen'

/**
 * What a request needs to know about its signed-in user, kept briefly per process so that
 * an authenticated read costs no database round trip for the caller (docs/RELIABILITY.md,
 * "Speed"). Every change that matters to a session (role, ban, token version, name,
 * username, deletion) makes a trigger on "User" send the user's id on SESSION_CHANNEL
 * when it commits; each web process drops that user on receipt. The process that made the
 * change also drops it itself right after the commit (`forgetSessionUser`), so its very
 * next request reads the row again. The cache is used only while this process's listener
 * is connected, and is emptied whenever it (re)connects, so no notification can be missed
 * unnoticed; the time limit bounds a connection that died without saying so. The embedded
 * database passes no notifications between connections: there the cache stays off.
 */
export const SESSION_CHANNEL = 'aiimg_session_users'

export type CachedSessionRow = { id: string; username: string; name: string; role: Role; tokenVersion: number; bannedAt: Date | null }

const MAX_USERS = 50_000

type State = {
  users: Map<string, { row: CachedSessionRow | null; at: number }>
  /** Bumped by every forget: a lookup that started before one must not store its (maybe stale) row. */
  generation: number
  listening: boolean
  started: boolean
  stop?: () => Promise<void>
}

const globalForCache = globalThis as unknown as { sessionCache?: State }
// One state per process even if the bundler loads this module more than once (per route).
const state: State = (globalForCache.sessionCache ??= { users: new Map(), generation: 0, listening: false, started: false })

function ttlMs(): number {
  const configured = env().SESSION_CACHE_SECONDS
  const seconds = configured ?? (process.env.NODE_ENV === 'test' ? 0 : 10)
  return env().EMBEDDED_DATABASE ? 0 : seconds * 1000
}

function startListening() {
  state.started = true
  state.stop = listenOnChannel(
    env().DATABASE_URL,
    SESSION_CHANNEL,
    (id) => forgetSessionUser(id),
    (m) => console.error(m),
    () => {
      clearSessionUsers()
      state.listening = true
    },
    () => {
      state.listening = false
      clearSessionUsers()
    },
  )
}

/**
 * The user's row from the cache, or from `load` (stored if nothing was forgotten while it
 * ran). `null` rows (a deleted user) are cached too: a stale token must not cost a query.
 */
export async function cachedSessionRow(id: string, load: () => Promise<CachedSessionRow | null>): Promise<CachedSessionRow | null> {
  const ttl = ttlMs()
  if (ttl === 0) return load()
  if (!state.started) startListening()
  if (!state.listening) return load()
  const hit = state.users.get(id)
  if (hit && Date.now() - hit.at < ttl) return hit.row
  const generation = state.generation
  const row = await load()
  if (state.listening && generation === state.generation) {
    if (state.users.size >= MAX_USERS) state.users.delete(state.users.keys().next().value!)
    state.users.set(id, { row, at: Date.now() })
  }
  return row
}

/** Drops a user so the next request reads their row again (call after the change commits). */
export function forgetSessionUser(id: string): void {
  state.generation++
  state.users.delete(id)
}

export function clearSessionUsers(): void {
  state.generation++
  state.users.clear()
}

/** Ends the listener (tests; a process that stops); the next lookup starts it again. */
export async function stopSessionCache(): Promise<void> {
  await state.stop?.()
  state.started = false
  state.listening = false
  state.stop = undefined
}

/** For tests: whether the cache is in use in this process now. */
export function sessionCacheActive(): boolean {
  return ttlMs() > 0 && state.listening
}

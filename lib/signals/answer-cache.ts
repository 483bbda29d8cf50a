import 'server-only'
import { env } from '@/lib/env'
import { cacheTtlMs, listenedCache } from './listened-cache'

/**
 * Whole answers a web process keeps, by scope, until what they were made from changes: the
 * triggers of migration answer_signals send the scope on ANSWERS_CHANNEL when such a change
 * commits (a work on the wall, its author's name or avatar; a day total of the reports), and
 * every web process drops that scope's answers on receipt (docs/DECISIONS.md, "Kept answers").
 * Only for answers that depend on nothing else: not the caller, not the clock.
 */
export const ANSWERS_CHANNEL = 'aiimg_answers'

export type AnswerScope = 'wall' | 'reports'

/** The keys of a scope's answers. */
const inScope = (scope: string) => (key: string) => key.startsWith(`${scope}|`)

const answers = () =>
  listenedCache<unknown>({
    channel: ANSWERS_CHANNEL,
    maxEntries: 1_000,
    // Characters of the answers' texts: about 16 MB at most (a page of 60 works is 20,000-40,000).
    maxWeight: 8_000_000,
    ttlMs: () => cacheTtlMs(env().ANSWER_CACHE_SECONDS, 10),
    onSignal: (scope, cache) => cache.forgetWhere(inScope(scope)),
  })

/** The scope's answer for `key`, from this process's cache or from `load`; `weigh` counts its texts' characters. */
export function cachedAnswer<T>(scope: AnswerScope, key: string, load: () => Promise<T>, weigh: (answer: T) => number): Promise<T> {
  return answers().get(`${scope}|${key}`, load, weigh as (answer: unknown) => number) as Promise<T>
}

/**
 * Awaits a write to what the scope's answers show, then drops this process's answers of that
 * scope: its own next read (a page refetched right after a like) makes them anew, without
 * waiting for the notification that tells every process.
 */
export async function afterWriting<T>(scope: AnswerScope, write: Promise<T>): Promise<T> {
  try {
    return await write
  } finally {
    answers().forgetWhere(inScope(scope))
  }
}

/** For tests: the last scope (or marker) this process heard. */
export function lastAnswerSignal(): string {
  return answers().lastSignal()
}

/** For tests: whether answers are kept in this process now. */
export function answerCacheActive(): boolean {
  return answers().active()
}

/** Ends the listener (tests); the next answer starts it again. */
export function stopAnswerCache(): Promise<void> {
  return answers().stop()
}

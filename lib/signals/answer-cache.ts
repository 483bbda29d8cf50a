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

const answers = () =>
  listenedCache<unknown>({
    channel: ANSWERS_CHANNEL,
    maxEntries: 500,
    ttlMs: () => cacheTtlMs(env().ANSWER_CACHE_SECONDS, 10),
    onSignal: (scope, cache) => cache.forgetWhere((key) => key.startsWith(`${scope}|`)),
  })

/** The scope's answer for `key`, from this process's cache or from `load`. */
export function cachedAnswer<T>(scope: AnswerScope, key: string, load: () => Promise<T>): Promise<T> {
  return answers().get(`${scope}|${key}`, load) as Promise<T>
}

/** For tests: whether answers are kept in this process now. */
export function answerCacheActive(): boolean {
  return answers().active()
}

/** Ends the listener (tests); the next answer starts it again. */
export function stopAnswerCache(): Promise<void> {
  return answers().stop()
}

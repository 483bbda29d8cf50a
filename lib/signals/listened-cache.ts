import 'server-only'
import { env } from '@/lib/env'
import { listenOnChannel } from './listen'

/**
 * Values a web process keeps for a short time and drops when the database says that what
 * they were made from changed: triggers send a payload on `channel` when a change commits,
 * and `onSignal` decides what that payload drops. A load that began before any drop does
 * not store its (maybe stale) value (a generation counter). The cache is used only while
 * this process's listener is connected and is emptied whenever it (re)connects, so no
 * notification can be missed unnoticed; `ttlMs` only bounds a connection that died without
 * saying so (0: the cache is off, every get loads).
 */
export type ListenedCacheOptions = {
  channel: string
  maxEntries: number
  /** Most the values may weigh together, by the weight each get gives its value (no limit without). */
  maxWeight?: number
  ttlMs: () => number
  onSignal: (payload: string, cache: ListenedCache<unknown>) => void
}

type Entry<V> = { value: V; at: number; weight: number }

export class ListenedCache<V> {
  readonly #options: ListenedCacheOptions
  /** In order of use, least recently used first: the first to go when the cache is full. */
  readonly #entries = new Map<string, Entry<V>>()
  #weight = 0
  #generation = 0
  #lastSignal = ''
  #listening = false
  #stop: (() => Promise<void>) | undefined

  constructor(options: ListenedCacheOptions) {
    this.#options = options
  }

  /**
   * The key's value from the cache, or from `load` (stored if nothing was dropped while it
   * ran). `weigh` gives a stored value's weight against `maxWeight`.
   */
  async get(key: string, load: () => Promise<V>, weigh?: (value: V) => number): Promise<V> {
    const ttl = this.#options.ttlMs()
    if (ttl === 0) return load()
    if (!this.#stop) this.#listen()
    if (!this.#listening) return load()
    const hit = this.#entries.get(key)
    if (hit && Date.now() - hit.at < ttl) {
      this.#entries.delete(key)
      this.#entries.set(key, hit)
      return hit.value
    }
    const generation = this.#generation
    const value = await load()
    if (this.#listening && generation === this.#generation) this.#store(key, { value, at: Date.now(), weight: weigh?.(value) ?? 0 })
    return value
  }

  /** Drops one key, or every key without one. */
  forget(key?: string): void {
    this.#generation++
    if (key !== undefined) return this.#drop(key)
    this.#entries.clear()
    this.#weight = 0
  }

  /** Drops the keys `drop` picks. */
  forgetWhere(drop: (key: string) => boolean): void {
    this.#generation++
    for (const key of this.#entries.keys()) if (drop(key)) this.#drop(key)
  }

  /** The last payload heard (tests: a marker sent after a change is heard after it). */
  lastSignal(): string {
    return this.#lastSignal
  }

  /** Whether the cache is in use now (the time limit is not 0 and the listener is connected). */
  active(): boolean {
    return this.#options.ttlMs() > 0 && this.#listening
  }

  /** Ends the listener (tests; a process that stops); the next get starts it again. */
  async stop(): Promise<void> {
    await this.#stop?.()
    this.#stop = undefined
    this.#listening = false
  }

  #store(key: string, entry: Entry<V>) {
    const { maxEntries, maxWeight = Infinity } = this.#options
    this.#drop(key)
    if (entry.weight > maxWeight) return
    this.#entries.set(key, entry)
    this.#weight += entry.weight
    while (this.#entries.size > maxEntries || this.#weight > maxWeight) this.#drop(this.#entries.keys().next().value!)
  }

  #drop(key: string) {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#weight -= entry.weight
  }

  #listen() {
    this.#stop = listenOnChannel(
      env().DATABASE_URL,
      this.#options.channel,
      (payload) => {
        this.#lastSignal = payload
        this.#options.onSignal(payload, this as ListenedCache<unknown>)
      },
      (m) => console.error(m),
      () => {
        this.forget()
        this.#listening = true
      },
      () => {
        this.#listening = false
        this.forget()
      },
    )
  }
}

const globalForCaches = globalThis as unknown as { listenedCaches?: Map<string, ListenedCache<unknown>> }
// One cache per channel and process even if the bundler loads this module more than once (per route).
const caches = (globalForCaches.listenedCaches ??= new Map())

/** The process's cache on `options.channel`, made on first use. */
export function listenedCache<V>(options: ListenedCacheOptions): ListenedCache<V> {
  let cache = caches.get(options.channel)
  if (!cache) caches.set(options.channel, (cache = new ListenedCache<unknown>(options)))
  return cache as ListenedCache<V>
}

/**
 * A time limit from a setting in seconds (`configured`; `fallback` when unset, 0 under
 * tests). The embedded database passes no notifications between connections: there every
 * listened cache stays off.
 */
export function cacheTtlMs(configured: number | undefined, fallback: number): number {
  const seconds = configured ?? (process.env.NODE_ENV === 'test' ? 0 : fallback)
  return env().EMBEDDED_DATABASE ? 0 : seconds * 1000
}

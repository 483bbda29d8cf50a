/** Events the request layer raises for the app to react to (docs/PRODUCT.md §8). */
export const INTEGRAL_NOT_ENOUGH = 'integral-not-enough'

export type IntegralNotEnoughDetail = { success: false; errMessage: string; data: unknown }

type Listener<T> = (detail: T) => void
const listeners = new Map<string, Set<Listener<unknown>>>()

export function emit<T>(name: string, detail: T): void {
  listeners.get(name)?.forEach((listener) => listener(detail))
}

export function on<T>(name: string, listener: Listener<T>): () => void {
  const set = listeners.get(name) ?? new Set()
  set.add(listener as Listener<unknown>)
  listeners.set(name, set)
  return () => set.delete(listener as Listener<unknown>)
}

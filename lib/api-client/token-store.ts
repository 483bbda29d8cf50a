/** docs/PRODUCT.md §4.3: the token lives in localStorage with the prefix 'Bearer '. */
export const TOKEN_KEY = 'token'

const listeners = new Set<() => void>()
const notify = () => listeners.forEach((l) => l())

export function getStoredToken(): string | null {
  if (typeof window === 'undefined') return null
  return window.localStorage.getItem(TOKEN_KEY)
}

export function storeToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, `Bearer ${token}`)
  notify()
}

export function clearToken(): void {
  window.localStorage.removeItem(TOKEN_KEY)
  notify()
}

/** For useSyncExternalStore: changes here and in other tabs. */
export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener)
  const onStorage = (e: StorageEvent) => e.key === TOKEN_KEY && listener()
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

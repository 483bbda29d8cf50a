/** A tiny store behind the toasts: anything may push one, <Toaster/> shows them. */
export type ToastKind = 'success' | 'error' | 'info'
export type Toast = { id: number; kind: ToastKind; message: string }

let toasts: Toast[] = []
let nextId = 1
const listeners = new Set<() => void>()

function publish(next: Toast[]) {
  toasts = next
  listeners.forEach((l) => l())
}

export function showToast(message: string, kind: ToastKind = 'info', durationMs = 2000): void {
  if (!message) return
  const toast = { id: nextId++, kind, message }
  publish([...toasts.slice(-3), toast])
  setTimeout(() => publish(toasts.filter((t) => t.id !== toast.id)), durationMs)
}

export const toast = {
  success: (message: string) => showToast(message, 'success'),
  error: (message: string) => showToast(message, 'error'),
  info: (message: string) => showToast(message, 'info'),
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function getToasts(): Toast[] {
  return toasts
}

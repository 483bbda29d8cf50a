import { toast as sonner } from 'sonner'

/**
 * Toasts, shown by <Toaster/> (sonner). Anything may push one; the request layer's
 * contract is `toast(message, durationMs)` with its own strings and 2 s.
 */
export type ToastKind = 'success' | 'error' | 'info'

export const TOAST_DEFAULT_MS = 2000

export function showToast(message: string, kind: ToastKind = 'info', durationMs = TOAST_DEFAULT_MS): void {
  if (!message) return
  sonner[kind](message, { duration: durationMs })
}

export const toast = {
  success: (message: string) => showToast(message, 'success'),
  error: (message: string) => showToast(message, 'error'),
  info: (message: string) => showToast(message, 'info'),
}

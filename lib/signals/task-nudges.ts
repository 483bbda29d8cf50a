/**
 * Nudges reach a running task's adapter when its backend's own callback says the job
 * changed (the Midjourney notify hook), so it polls now instead of at its next interval.
 * Signals named nudge:<taskId> cross processes by NOTIFY; inside a process the listeners
 * live on globalThis, since Next.js bundles route handlers and the in-process worker apart.
 */
export const NUDGE_SIGNAL_PREFIX = 'nudge:'

const shared = globalThis as unknown as { aiimgTaskNudges?: Map<string, Set<() => void>> }
const listeners = () => (shared.aiimgTaskNudges ??= new Map())

export function onTaskNudge(taskId: string, listener: () => void): () => void {
  const set = listeners().get(taskId) ?? new Set()
  set.add(listener)
  listeners().set(taskId, set)
  return () => {
    set.delete(listener)
    if (set.size === 0 && listeners().get(taskId) === set) listeners().delete(taskId)
  }
}

export function nudgeTask(taskId: string): void {
  for (const listener of listeners().get(taskId) ?? []) listener()
}

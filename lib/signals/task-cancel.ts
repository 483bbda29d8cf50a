import { signalNow } from './job-signal'

/** Signals named cancel:<taskId> tell the worker running that task to interrupt its backend. */
export const CANCEL_SIGNAL_PREFIX = 'cancel:'

export function announceTaskCanceled(taskId: string): Promise<void> {
  return signalNow(`${CANCEL_SIGNAL_PREFIX}${taskId}`)
}

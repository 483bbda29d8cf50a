/**
 * The worker running inside this process (the embedded default), if any. It lives on
 * globalThis because Next.js bundles route handlers and instrumentation apart: each
 * bundle has its own copy of this module, but they share the process's one worker
 * (scripts/next-server.mjs drains it from there on shutdown).
 */
export type LocalWorker = { wake(name: string): void; stop(): Promise<void> }

const holder = globalThis as unknown as { aiimgWorker?: LocalWorker }

export function localWorker(): LocalWorker | undefined {
  return holder.aiimgWorker
}

export function setLocalWorker(worker: LocalWorker): void {
  holder.aiimgWorker = worker
}

/** Wakes a job of this process's worker, if it runs one. */
export function wakeLocalWorker(name: string): void {
  holder.aiimgWorker?.wake(name)
}

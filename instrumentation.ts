// Runs once when the web server starts. With RUN_WORKER_IN_WEB (the embedded default
// sets it) the background worker runs inside this process.
export async function register() {
  // Not an environment read: Next.js replaces NEXT_RUNTIME at build time, and this literal
  // test is what lets the edge bundle drop the worker's imports (so it stays out of lib/env.ts).
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { env } = await import('@/lib/env')
  if (!env().RUN_WORKER_IN_WEB) return
  const { startInProcessWorker } = await import('@/lib/worker/in-process')
  startInProcessWorker()
}

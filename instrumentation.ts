// Runs once when the web server starts. With RUN_WORKER_IN_WEB (the embedded default
// sets it) the background worker runs inside this process.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { env } = await import('@/lib/env')
  if (!env().RUN_WORKER_IN_WEB) return
  const { startInProcessWorker } = await import('@/lib/worker/in-process')
  startInProcessWorker()
}

import type { Instrumentation } from 'next'
import { isDatabaseUnavailable } from '@/lib/http/database-unavailable'

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

/**
 * A page whose rendering could not reach the database (the root layout reads the site
 * settings) is marked by the serial scripts/next-server.mjs gave its request, so that server
 * answers 503 instead of Next.js's 500. Called while the page renders, before the status is
 * written; the set is the server's, shared through globalThis (one process).
 */
export const onRequestError: Instrumentation.onRequestError = (error, request) => {
  const serial = request.headers['x-request-serial']
  const marked = (globalThis as { aiimgDatabaseUnavailableRequests?: Set<string> }).aiimgDatabaseUnavailableRequests
  if (typeof serial !== 'string' || !marked || !isDatabaseUnavailable(error)) return
  if (marked.size > 10_000) marked.clear() // marks of requests that ended first: never more than a burst's
  marked.add(serial)
}

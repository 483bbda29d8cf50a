import 'server-only'
import { db, type Tx } from '@/lib/db'
import { wakeLocalWorker } from './local-worker'

/** The PostgreSQL channel on which work is announced to workers (LISTEN/NOTIFY). */
export const JOB_CHANNEL = 'aiimg_jobs'

/**
 * Announces new work for a job from inside the transaction that created it: PostgreSQL
 * delivers the notification only when that transaction commits, so a worker never wakes
 * before the work is visible. Call `wakeLocalWorker` after the commit as well: the
 * embedded database does not pass notifications between connections.
 */
export async function signalJob(tx: Tx, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${JOB_CHANNEL}, ${name})`
}

/** Announces at once, outside any transaction (for signals about work that already exists). */
export async function signalNow(name: string): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${JOB_CHANNEL}, ${name})`
  wakeLocalWorker(name)
}

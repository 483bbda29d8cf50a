import pg from 'pg'
import { db, type Tx } from '@/lib/db'
import { wakeInProcessJob } from './in-process'

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

export function wakeLocalWorker(name: string): void {
  wakeInProcessJob(name)
}

/**
 * Keeps a connection LISTENing on the job channel and calls `onSignal` with each job
 * name; reconnects after errors. Returns a function that stops listening.
 */
export function listenForJobs(databaseUrl: string, onSignal: (name: string) => void, log: (m: string) => void = console.log): () => Promise<void> {
  return listenOnChannel(databaseUrl, JOB_CHANNEL, onSignal, log)
}

/** Keeps a connection LISTENing on `channel` (reconnecting after errors); `onConnect` runs after each (re)connect. */
export function listenOnChannel(
  databaseUrl: string,
  channel: string,
  onSignal: (payload: string) => void,
  log: (m: string) => void = console.log,
  onConnect?: () => void,
): () => Promise<void> {
  let client: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined

  const connect = async () => {
    if (stopped) return
    const next = new pg.Client({ connectionString: databaseUrl })
    next.on('notification', (msg) => msg.payload && onSignal(msg.payload))
    next.on('error', (error) => {
      log(`[listen] ${channel} lost its connection: ${error.message}`)
      void next.end().catch(() => undefined)
      if (client === next) schedule()
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${channel}`)
      client = next
      onConnect?.()
    } catch (error) {
      log(`[listen] ${channel} cannot connect: ${(error as Error).message}`)
      void next.end().catch(() => undefined)
      schedule()
    }
  }
  const schedule = () => {
    client = undefined
    if (!stopped) retry = setTimeout(connect, 2000)
  }

  void connect()
  return async () => {
    stopped = true
    clearTimeout(retry)
    await client?.end().catch(() => undefined)
  }
}

/** Announces at once, outside any transaction (for signals about work that already exists). */
export async function signalNow(name: string): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${JOB_CHANNEL}, ${name})`
  wakeLocalWorker(name)
}

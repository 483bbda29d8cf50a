import pg from 'pg'
import { DB_TIMEOUTS } from '@/lib/db'
import { JOB_CHANNEL } from './job-signal'

/**
 * Keeps a connection LISTENing on the job channel and calls `onSignal` with each job
 * name; reconnects after errors. Returns a function that stops listening.
 */
export function listenForJobs(databaseUrl: string, onSignal: (name: string) => void, log: (m: string) => void = console.log): () => Promise<void> {
  return listenOnChannel(databaseUrl, JOB_CHANNEL, onSignal, log)
}

/**
 * Keeps a connection LISTENing on `channel` (reconnecting after errors); `onConnect` runs
 * after each (re)connect, `onDisconnect` when the connection is lost (notifications sent
 * until the next connect are missed).
 */
export function listenOnChannel(
  databaseUrl: string,
  channel: string,
  onSignal: (payload: string) => void,
  log: (m: string) => void = console.log,
  onConnect?: () => void,
  onDisconnect?: () => void,
): () => Promise<void> {
  let client: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  let connecting: Promise<void> | undefined

  const connect = () => void (connecting = connectAndListen())
  const connectAndListen = async () => {
    if (stopped) return
    // A connect that hangs (a database behind a black hole) gives up and is tried again, as a refused one is.
    const next = new pg.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: DB_TIMEOUTS.connectMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    })
    next.on('notification', (msg) => msg.payload && onSignal(msg.payload))
    next.on('error', (error) => {
      log(`[listen] ${channel} lost its connection: ${error.message}`)
      void next.end().catch(() => undefined)
      if (client === next) {
        onDisconnect?.()
        schedule()
      }
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${channel}`)
      // Stopped while connecting: this connection is not kept, and nobody is told it listens.
      if (stopped) return void (await next.end().catch(() => undefined))
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
    onDisconnect?.()
    clearTimeout(retry)
    await connecting
    await client?.end().catch(() => undefined)
  }
}

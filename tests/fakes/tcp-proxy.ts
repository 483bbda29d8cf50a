// A TCP proxy a test controls, put between the app and PostgreSQL to take the database away:
// `cut()` resets every connection and refuses new ones (the server crashed or restarted),
// `blackHole()` forwards nothing and answers nothing while keeping every socket open (a
// network partition: packets silently dropped), `restore()` brings the path back. After a
// black hole the held bytes flow again, as TCP retransmissions would once the path heals.
import net from 'node:net'

export type ProxyMode = 'up' | 'cut' | 'black-hole'

type Pair = { client: net.Socket; upstream?: net.Socket }

export type TcpProxy = {
  readonly port: number
  readonly mode: ProxyMode
  /** Connections accepted since start (the app's pool reconnecting shows here). */
  readonly accepted: number
  cut(): Promise<void>
  blackHole(): void
  restore(): Promise<void>
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const pairs = new Set<Pair>()
  let mode: ProxyMode = 'up'
  let accepted = 0

  const link = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host)
    pair.upstream = upstream
    const drop = () => {
      pair.client.destroy()
      upstream.destroy()
      pairs.delete(pair)
    }
    upstream.on('error', drop).on('close', drop)
    pair.client.on('close', drop)
    pair.client.pipe(upstream)
    upstream.pipe(pair.client)
  }

  const onConnection = (client: net.Socket) => {
    accepted++
    client.on('error', () => undefined)
    const pair: Pair = { client }
    pairs.add(pair)
    if (mode === 'black-hole') client.pause()
    else link(pair)
  }

  let server = net.createServer(onConnection)
  const listen = (on: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(on, '127.0.0.1', () => resolve()))
  await listen(port)
  const boundPort = (server.address() as net.AddressInfo).port

  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()))

  return {
    port: boundPort,
    get mode() {
      return mode
    },
    get accepted() {
      return accepted
    },
    async cut() {
      mode = 'cut'
      const closed = closeServer()
      for (const pair of pairs) {
        pair.client.resetAndDestroy()
        pair.upstream?.destroy()
      }
      pairs.clear()
      await closed
    },
    blackHole() {
      mode = 'black-hole'
      for (const { client, upstream } of pairs) {
        client.unpipe()
        upstream?.unpipe()
        client.pause()
        upstream?.pause()
      }
    },
    async restore() {
      const was = mode
      mode = 'up'
      if (was === 'cut') {
        server = net.createServer(onConnection)
        await listen(boundPort)
        return
      }
      for (const pair of pairs) {
        if (!pair.upstream) {
          link(pair)
          pair.client.resume()
          continue
        }
        pair.client.pipe(pair.upstream)
        pair.upstream.pipe(pair.client)
        pair.client.resume()
        pair.upstream.resume()
      }
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream?.destroy()
      }
      pairs.clear()
      if (server.listening) await closeServer()
    },
  }
}

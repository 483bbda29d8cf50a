import { createServer, type Server, type Socket } from 'node:net'
import type { PGlite } from '@electric-sql/pglite'

/**
 * Serves one PGlite database over the PostgreSQL wire protocol to many connections.
 *
 * PGlite is a single session, so connections must take turns — and not message by
 * message: the extended protocol sends Parse, Bind, Describe, Execute as separate
 * messages up to a Sync, and another connection's messages in between would overwrite
 * the unnamed statement. Each connection's messages are therefore collected up to Sync
 * (or a simple Query) and run as one unit; while a transaction is open, only the
 * connection that opened it is served. (pglite-socket interleaves messages, which
 * breaks under concurrent queries.)
 */
const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102
const PROTOCOL_3 = 196608

type Batch = { conn: Connection; messages: Uint8Array[] }
type Connection = { id: number; socket: Socket; buffer: Buffer; started: boolean; pending: Uint8Array[]; closed: boolean }

export class PGliteServer {
  private server: Server | undefined
  private queue: Batch[] = []
  private running = false
  private txOwner: Connection | null = null
  private nextId = 1
  private connections = new Set<Connection>()

  constructor(private readonly db: PGlite) {}

  async listen(port: number, host: string): Promise<{ host: string; port: number }> {
    this.server = createServer((socket) => this.accept(socket))
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject)
      this.server!.listen(port, host, () => resolve())
    })
    const address = this.server.address()
    if (!address || typeof address === 'string') throw new Error('PGlite server has no TCP address')
    return { host, port: address.port }
  }

  async close(): Promise<void> {
    for (const conn of this.connections) conn.socket.destroy()
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  private accept(socket: Socket) {
    const conn: Connection = { id: this.nextId++, socket, buffer: Buffer.alloc(0), started: false, pending: [], closed: false }
    this.connections.add(conn)
    socket.setNoDelay(true)
    socket.on('data', (chunk) => this.receive(conn, chunk))
    socket.on('error', () => socket.destroy())
    socket.on('close', () => void this.drop(conn))
  }

  private receive(conn: Connection, chunk: Buffer) {
    conn.buffer = Buffer.concat([conn.buffer, chunk])
    for (;;) {
      if (!conn.started) {
        if (conn.buffer.length < 8) return
        const length = conn.buffer.readInt32BE(0)
        if (conn.buffer.length < length) return
        const code = conn.buffer.readInt32BE(4)
        const message = conn.buffer.subarray(0, length)
        conn.buffer = conn.buffer.subarray(length)
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) conn.socket.write('N')
        else if (code === CANCEL_REQUEST) conn.socket.destroy()
        else if (code === PROTOCOL_3) {
          conn.started = true
          this.enqueue({ conn, messages: [new Uint8Array(message)] })
        } else conn.socket.destroy()
        continue
      }
      if (conn.buffer.length < 5) return
      const length = 1 + conn.buffer.readInt32BE(1)
      if (conn.buffer.length < length) return
      const type = String.fromCharCode(conn.buffer.readUInt8(0))
      const message = new Uint8Array(conn.buffer.subarray(0, length))
      conn.buffer = conn.buffer.subarray(length)
      if (type === 'X') return void conn.socket.end()
      conn.pending.push(message)
      if (type === 'S' || type === 'Q' || type === 'H') {
        this.enqueue({ conn, messages: conn.pending })
        conn.pending = []
      }
    }
  }

  private enqueue(batch: Batch) {
    this.queue.push(batch)
    void this.pump()
  }

  /** Runs batches one at a time; inside a transaction, only its owner's. */
  private async pump() {
    if (this.running) return
    this.running = true
    try {
      for (;;) {
        const index = this.txOwner ? this.queue.findIndex((b) => b.conn === this.txOwner) : 0
        if (index < 0 || this.queue.length === 0) return
        const [batch] = this.queue.splice(index, 1)
        if (!batch || batch.conn.closed) continue
        await this.db.runExclusive(async () => {
          for (const message of batch.messages) {
            await this.db.execProtocolRawStream(message, { onRawData: (data) => void (batch.conn.closed || batch.conn.socket.write(data)) })
          }
        })
        this.txOwner = this.db.isInTransaction() ? batch.conn : null
      }
    } finally {
      this.running = false
    }
  }

  /** A connection that goes away in the middle of a transaction rolls it back. */
  private async drop(conn: Connection) {
    conn.closed = true
    this.connections.delete(conn)
    this.queue = this.queue.filter((b) => b.conn !== conn)
    if (this.txOwner === conn) {
      await this.db.runExclusive(() => this.db.exec('ROLLBACK')).catch(() => undefined)
      this.txOwner = null
    }
    void this.pump()
  }
}

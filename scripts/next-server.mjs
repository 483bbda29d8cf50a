// The HTTP server around Next.js, started by scripts/start.ts. Route handlers cannot see
// the TCP peer address, so this server writes it into X-Client-IP, overwriting whatever a
// client sent (lib/http/client-ip.ts); and Next.js answers 500 for a page that failed,
// so this server answers 503 instead when the failure was the database being out of reach.
// It reads no environment itself: scripts/start.ts passes the validated settings
// (lib/env.ts) as --port, --host and --drain-seconds.
import http from 'node:http'
import { parseArgs } from 'node:util'
import next from 'next'

const { values: args } = parseArgs({
  options: {
    dev: { type: 'boolean', default: false },
    port: { type: 'string', default: '3000' },
    host: { type: 'string', default: '0.0.0.0' },
    'drain-seconds': { type: 'string', default: '25' },
  },
})
const dev = args.dev
const port = Number(args.port)
const hostname = args.host

const app = next({ dev, port, hostname })
const handle = app.getRequestHandler()
await app.prepare()

// Pages that failed because the database could not be reached: instrumentation.ts adds the
// request's serial here while the page renders, before Next.js writes its 500.
const unavailable = (globalThis.aiimgDatabaseUnavailableRequests ??= new Set())
let serial = 0
let closing = false
// Answers being written, which a shutdown lets finish; event streams are not among them.
const answering = new Set()

const server = http.createServer((req, res) => {
  // Shutting down: the client opens its next request elsewhere instead of on this connection.
  if (closing) res.setHeader('Connection', 'close')
  answering.add(res)
  req.headers['x-client-ip'] = req.socket.remoteAddress ?? ''
  const id = String(++serial)
  req.headers['x-request-serial'] = id
  const writeHead = res.writeHead
  // An outage is the database's, not a fault of the page: 503 with a hint when to come back.
  res.writeHead = function (status, ...rest) {
    // A stream of events lasts as long as its page is open, and its client reconnects. A
    // chat answer (a POST) is an answer being written: it is stopped and stored, then sent.
    if (req.method === 'GET' && String(this.getHeader('content-type') ?? '').startsWith('text/event-stream')) answering.delete(res)
    if (unavailable.delete(id) && status === 500) {
      this.setHeader('Retry-After', '10')
      return writeHead.call(this, 503, ...rest)
    }
    return writeHead.call(this, status, ...rest)
  }
  res.once('close', () => {
    answering.delete(res)
    unavailable.delete(id)
  })
  handle(req, res)
})
// Node closes an idle keep-alive connection after 5 s, the same 5 s after which Node's own
// clients (and so Playwright) drop one: a request sent on it at that instant is reset
// unanswered. Behind nginx (upstream keepalive_timeout 60 s) a reset POST becomes a 502.
// Outlasting both, the client always closes first.
server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000
// A port already in use (say, a second `npm start` on the same machine) ends this process
// instead of leaving a web server that serves nothing while its worker runs.
server.on('error', (error) => {
  console.error(`[web] cannot listen on ${hostname}:${port}: ${error.message}`)
  process.exit(1)
})
server.listen(port, hostname, () => {
  console.log(`[web] ready on http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}${dev ? ' (development)' : ''}`)
})

// Ctrl-C / SIGTERM: stop taking connections, finish the answers being written (up to
// ANSWER_DRAIN_MS, inside docker-compose's 15 s grace), let the in-process worker (embedded
// default) drain its running tasks as `npm run worker` does, then leave.
const drainSeconds = Number(args['drain-seconds'])
const ANSWER_DRAIN_MS = 10_000
const CHAT_STOP_MS = 3_000
async function shutdown() {
  if (closing) return
  closing = true
  setTimeout(() => process.exit(0), (drainSeconds + 10) * 1000).unref()
  server.close()
  server.closeIdleConnections()
  // A connection busy now is closed once its answer is sent, not when it has idled 65 s.
  setInterval(() => server.closeIdleConnections(), 100).unref()
  const answered = (async () => {
    const until = Date.now() + ANSWER_DRAIN_MS
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
    while (answering.size && Date.now() < until - CHAT_STOP_MS) await sleep(50)
    // Chat answers still streaming (lib/chat/open-answers.ts) keep what has arrived, or are
    // refunded, and end their streams; their last bytes go out in the time left.
    const chats = globalThis.aiimgOpenAnswers
    if (chats?.size) await Promise.race([Promise.all([...chats].map((chat) => chat.stop())), sleep(until - Date.now())])
    while (answering.size && Date.now() < until) await sleep(50)
  })()
  const worker = globalThis.aiimgWorker
  if (worker) {
    console.log('[worker] stopping: draining')
    await worker.stop().catch((error) => console.error('[worker] drain failed', error))
  }
  await answered
  server.closeAllConnections()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)

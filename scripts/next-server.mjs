// The HTTP server around Next.js, started by scripts/start.ts. It exists for one
// reason: route handlers cannot see the TCP peer address, so this server writes it
// into X-Client-IP, overwriting whatever a client sent (lib/http/client-ip.ts).
import http from 'node:http'
import next from 'next'

const dev = process.argv.includes('--dev')
const port = Number(process.env.PORT ?? 3000)
const hostname = process.env.LISTEN_HOST ?? '0.0.0.0'

const app = next({ dev, port, hostname })
const handle = app.getRequestHandler()
await app.prepare()

const server = http.createServer((req, res) => {
  req.headers['x-client-ip'] = req.socket.remoteAddress ?? ''
  handle(req, res)
})
server.listen(port, hostname, () => {
  console.log(`[web] ready on http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}${dev ? ' (development)' : ''}`)
})

let closing = false
function shutdown() {
  if (closing) return
  closing = true
  server.close(() => process.exit(0))
  server.closeIdleConnections?.()
  setTimeout(() => process.exit(0), 10_000).unref()
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)

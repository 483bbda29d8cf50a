// Pieces the fake backends share: a server on a random local port, request recording,
// JSON and multipart bodies, and small deterministic PNGs.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'

export type RecordedRequest = {
  method: string
  path: string
  query: URLSearchParams
  headers: http.IncomingHttpHeaders
  /** Parsed JSON, the parsed multipart form, or null for an empty body. */
  body: unknown
  /** When it arrived (ms since the epoch, sub-millisecond), for latency figures. */
  at: number
}

export type MultipartFile = { filename: string; type: string; bytes: Buffer }
export type Multipart = { fields: Record<string, string>; files: Record<string, MultipartFile> }

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer) => Promise<unknown> | unknown

export async function startServer(handler: Handler): Promise<{ server: http.Server; url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    try {
      const raw = await readBody(req)
      await handler(req, res, new URL(req.url ?? '/', 'http://fake'), raw)
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: 'FakeServerError', detail: String(err) })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    // Also ends requests a "hanging" fake never answered.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

export function sendText(res: http.ServerResponse, status: number, text: string, type = 'text/html'): void {
  res.writeHead(status, { 'content-type': type })
  res.end(text)
}

/** JSON, or undefined when the body is not JSON (the fakes answer that like their real servers). */
export function jsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return null
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return undefined
  }
}

export async function parseMultipart(req: http.IncomingMessage, raw: Buffer): Promise<Multipart> {
  const form = await new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: new Uint8Array(raw),
  }).formData()
  const parsed: Multipart = { fields: {}, files: {} }
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parsed.fields[name] = value
    else parsed.files[name] = { filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) }
  }
  return parsed
}

export function record(calls: RecordedRequest[], req: http.IncomingMessage, url: URL, body: unknown): void {
  calls.push({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body,
    at: performance.timeOrigin + performance.now(),
  })
}

/** An 8×8 PNG whose colour depends on the seed, so different seeds give different bytes. */
export function fakePng(seed: number, size = 8): Promise<Buffer> {
  const n = Math.abs(Math.trunc(seed)) >>> 0
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: n & 255, g: (n >>> 8) & 255, b: (n >>> 16) & 255 } } })
    .png()
    .toBuffer()
}

export async function isImage(bytes: Buffer): Promise<boolean> {
  try {
    await sharp(bytes).metadata()
    return true
  } catch {
    return false
  }
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export const randomSeed = () => Math.floor(Math.random() * 2 ** 32)

export function decodeBase64Image(value: unknown): Buffer | null {
  if (typeof value !== 'string') return null
  return Buffer.from(value.replace(/^data:image\/[\w+.-]+;base64,/, ''), 'base64')
}

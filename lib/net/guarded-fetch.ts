import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import { allowedAddresses, systemResolver, type Resolver } from './metadata-address'
import { pinnedLookup } from './safe-fetch'

export type GuardedInit = { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }

const MAX_BYTES = 10 * 1024 * 1024

/**
 * fetch() for the site's own service calls (WeChat, SMS providers, the translation API):
 * the host is resolved once and refused when any address is link-local or a cloud
 * metadata address, then the connection goes to the checked address only. Private and
 * loopback addresses stay allowed (an operator's relay on the LAN). Redirects are not
 * followed (a 3xx comes back as it is); answers over 10 MB are cut off with an error.
 * Like fetch, an aborted signal rejects with the signal's reason.
 */
export async function guardedFetch(input: string | URL, init: GuardedInit = {}, resolve: Resolver = systemResolver): Promise<Response> {
  const url = new URL(input)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`)
  init.signal?.throwIfAborted()
  const addresses = await allowedAddresses(url.hostname, resolve)
  init.signal?.throwIfAborted()
  const body = init.body === undefined ? undefined : Buffer.from(init.body)
  const headers = { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) }
  try {
    return await new Promise<Response>((done, fail) => {
      const client = url.protocol === 'https:' ? https : http
      const req = client.request(
        url,
        { method: init.method ?? 'GET', headers, signal: init.signal, lookup: pinnedLookup(addresses) as unknown as net.LookupFunction },
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > MAX_BYTES) req.destroy(new Error(`answer over ${MAX_BYTES} bytes`))
            else chunks.push(chunk)
          })
          res.on('error', fail)
          res.on('close', () => {
            if (!res.complete) fail(new Error('connection closed in the middle of the answer'))
          })
          res.on('end', () => {
            try {
              done(toResponse(res, Buffer.concat(chunks)))
            } catch (error) {
              fail(error) // a status Response refuses (outside 200-599)
            }
          })
        },
      )
      req.on('error', fail)
      req.end(body)
    })
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason
    throw error
  }
}

function toResponse(res: http.IncomingMessage, bytes: Buffer): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one)
  }
  const status = res.statusCode ?? 502
  const hasBody = ![204, 205, 304].includes(status) && bytes.length > 0
  return new Response(hasBody ? new Uint8Array(bytes) : null, { status, statusText: res.statusMessage ?? '', headers })
}

/**
 * guardedFetch for a streamed answer (server-sent events from a chat model): the same
 * address checks, but the Response is handed back as soon as the headers arrive and its
 * body streams as the bytes come. Aborting the signal ends the connection and the body.
 */
export async function guardedStream(input: string | URL, init: GuardedInit = {}, resolve: Resolver = systemResolver): Promise<Response> {
  const url = new URL(input)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`)
  init.signal?.throwIfAborted()
  const addresses = await allowedAddresses(url.hostname, resolve)
  init.signal?.throwIfAborted()
  const body = init.body === undefined ? undefined : Buffer.from(init.body)
  const headers = { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) }
  try {
    return await new Promise<Response>((done, fail) => {
      const client = url.protocol === 'https:' ? https : http
      const req = client.request(
        url,
        { method: init.method ?? 'GET', headers, signal: init.signal, lookup: pinnedLookup(addresses) as unknown as net.LookupFunction },
        (res) => {
          let size = 0
          let open = true
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              const finish = (error?: unknown) => {
                if (!open) return
                open = false
                if (error === undefined) controller.close()
                else controller.error(error)
              }
              res.on('data', (chunk: Buffer) => {
                size += chunk.length
                if (size > MAX_BYTES) return req.destroy(new Error(`answer over ${MAX_BYTES} bytes`))
                if (!open) return
                controller.enqueue(new Uint8Array(chunk))
                if ((controller.desiredSize ?? 1) <= 0) res.pause()
              })
              res.on('end', () => finish())
              res.on('close', () => {
                if (!res.complete) finish(init.signal?.aborted ? init.signal.reason : new Error('connection closed in the middle of the answer'))
              })
              res.on('error', (error) => finish(error))
            },
            pull() {
              res.resume()
            },
            cancel() {
              open = false
              req.destroy()
            },
          })
          const responseHeaders = new Headers()
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one)
          }
          const status = res.statusCode ?? 502
          try {
            done(new Response([204, 205, 304].includes(status) ? null : stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }))
          } catch (error) {
            fail(error)
          }
        },
      )
      req.on('error', fail)
      req.end(body)
    })
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason
    throw error
  }
}

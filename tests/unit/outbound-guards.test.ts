// Every other outbound client keeps off link-local and metadata addresses too: the
// ComfyUI websocket, the fetch for WeChat, SMS and translation, and safe-fetch's trusted hosts.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { watchSocket } from '@/lib/generation/backends/comfyui-socket'
import { guardedFetch } from '@/lib/net/guarded-fetch'
import { MetadataAddressError, type Resolver } from '@/lib/net/metadata-address'
import { createSafeFetcher, UnsafeUrlError } from '@/lib/net/safe-fetch'

let server: http.Server
let port: number
const hosts: string[] = []
const sockets: string[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '')
    res.writeHead(200, { 'content-type': 'application/json', 'x-extra': 'yes' }).end('{"errcode":0}')
  })
  const wss = new WebSocketServer({ server })
  wss.on('connection', (_socket, req) => sockets.push(req.headers.host ?? ''))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

const resolver =
  (answers: Record<string, string[]>): Resolver =>
  async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
const resolve = resolver({ 'service.lan': ['127.0.0.1'], 'meta.lan': ['169.254.169.254'], 'aliyun.lan': ['100.100.100.200'], 'aws6.lan': ['fd00:ec2::254'] })
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

describe('guardedFetch (WeChat, SMS providers, translation)', () => {
  it.each(['meta.lan', 'aliyun.lan', 'aws6.lan', '169.254.169.254', '[::ffff:a9fe:a9fe]'])('refuses %s before connecting', async (host) => {
    const before = hosts.length
    await expect(guardedFetch(`http://${host}:${port}/sns/userinfo`, {}, resolve)).rejects.toBeInstanceOf(MetadataAddressError)
    expect(hosts.length).toBe(before)
  })

  it('answers like fetch, connected to the checked address under the configured name', async () => {
    const res = await guardedFetch(
      `http://service.lan:${port}/cgi-bin/x?a=1`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      resolve,
    )
    expect([res.status, res.ok, res.headers.get('x-extra'), await res.json()]).toEqual([200, true, 'yes', { errcode: 0 }])
    expect(hosts.at(-1)).toBe(`service.lan:${port}`)
  })

  it('rejects with the signal reason when aborted (a timeout stays a TimeoutError)', async () => {
    const hanging = http.createServer(() => {})
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done))
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`
      await expect(guardedFetch(url, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' })
    } finally {
      hanging.closeAllConnections()
      hanging.close()
    }
  })
})

describe('the ComfyUI websocket', () => {
  const ctx = { signal: new AbortController().signal, onProgress: () => {} }

  it('does not connect to a name that resolves to a metadata address', async () => {
    const before = sockets.length
    const socket = watchSocket(`http://meta.lan:${port}/ws?clientId=a`, {}, 'p1', ctx, resolve)
    await socket.connected
    await pause(100)
    socket.close()
    expect(sockets.length).toBe(before)
  })

  it('connects to the checked address under the configured name', async () => {
    const socket = watchSocket(`http://service.lan:${port}/ws?clientId=b`, {}, 'p2', ctx, resolve)
    await socket.connected
    for (let i = 0; i < 50 && !sockets.includes(`service.lan:${port}`); i++) await pause(20)
    socket.close()
    expect(sockets).toContain(`service.lan:${port}`)
  })
})

describe('safe-fetch: trusted hosts (the operator’s backend) are still checked for metadata addresses', () => {
  const fetchVia = createSafeFetcher({ resolve })

  it('refuses a trusted host that is or resolves to a metadata address', async () => {
    for (const host of ['meta.lan', 'aws6.lan', '100.100.100.200', '[::ffff:6464:64c8]']) {
      await expect(fetchVia(`http://${host}:${port}/image.png`, { trustedHosts: [`${host}:${port}`] })).rejects.toBeInstanceOf(UnsafeUrlError)
    }
  })

  it('still fetches from a trusted loopback host, pinned to the checked address', async () => {
    const { bytes } = await fetchVia(`http://service.lan:${port}/image.png`, { trustedHosts: [`service.lan:${port}`] })
    expect(bytes.toString()).toBe('{"errcode":0}')
    expect(hosts.at(-1)).toBe(`service.lan:${port}`)
  })
})

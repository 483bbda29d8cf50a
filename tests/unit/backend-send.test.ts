// The backends' HTTP client: no connection to a link-local or metadata address however the
// name resolves, the connection pinned to the checked address, and no raw body in errors.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorText, okJson, parseJson, send, statusError, testOutcome, type HttpReply } from '@/lib/generation/backends/http'
import { BackendError } from '@/lib/generation/backends/types'
import type { Resolver } from '@/lib/net/metadata-address'

let server: http.Server
let port: number
const seen: string[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers.host ?? '')
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** A resolver with fixed answers that counts its calls. */
function resolver(answers: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = []
  const resolve = async (host: string) => (calls.push(host), (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
  return Object.assign(resolve, { calls })
}

async function refusal(promise: Promise<unknown>): Promise<BackendError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BackendError)
  return error as BackendError
}

describe('send() and metadata addresses', () => {
  it.each([
    ['169.254.169.254'],
    ['100.100.100.200'],
    ['fd00:ec2::254'],
    ['::ffff:169.254.169.254'],
    ['127.0.0.1', '169.254.170.2'], // one bad address among good ones is enough
  ])('refuses a name that resolves to %s before connecting', async (...addresses) => {
    const before = seen.length
    const resolve = resolver({ 'backend.lan': addresses })
    const error = await refusal(send(`http://backend.lan:${port}/sdapi/v1/sd-models`, {}, resolve))
    expect(error).toMatchObject({ code: 'UNREACHABLE', retryable: false })
    expect(error.message).toMatch(/链路本地或云服务器元数据地址/)
    expect(resolve.calls).toEqual(['backend.lan'])
    expect(seen.length).toBe(before)
  })

  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://100.100.100.200/',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://0xa9fea9fe/',
  ])('refuses the literal %s without a lookup', async (url) => {
    const resolve = resolver({})
    expect((await refusal(send(url, {}, resolve))).message).toMatch(/元数据地址/)
    expect(resolve.calls).toEqual([])
  })

  it('connects to the checked address under the configured name (no second lookup), loopback and LAN allowed', async () => {
    const resolve = resolver({ 'sd.lan': ['127.0.0.1'] })
    expect(okJson(await send(`http://sd.lan:${port}/x`, {}, resolve))).toEqual({ ok: true })
    expect(seen.at(-1)).toBe(`sd.lan:${port}`)
    expect(okJson(await send(`http://127.0.0.1:${port}/x`, {}, resolve))).toEqual({ ok: true })
    expect(resolve.calls).toEqual(['sd.lan'])
  })
})

describe('errors carry parsed text only', () => {
  const reply = (status: number, body: string, contentType = 'text/html'): HttpReply => ({ status, bytes: Buffer.from(body), contentType })
  const html = '<html><body>internal admin panel: password=hunter2-internal</body></html>'

  it('a body that is not JSON never reaches a message or a detail', () => {
    for (const error of [statusError(reply(500, html)), statusError(reply(403, html)), statusError(reply(404, '"a JSON string secret-123"'))]) {
      expect(JSON.stringify({ message: error.message, detail: error.detail })).not.toMatch(/hunter2|password|internal|secret-123/)
    }
    expect(errorText(reply(500, html))).toBe('')
    expect(errorText(reply(500, '"a JSON string secret-123"'))).toBe('')
    const notJson = (() => {
      try {
        parseJson(reply(200, html))
      } catch (e) {
        return e as BackendError
      }
    })()
    expect(notJson?.message).toBe('后端的应答不是 JSON（HTTP 200）')
    expect(JSON.stringify(notJson?.detail)).not.toMatch(/hunter2/)
  })

  it('a JSON detail or error.message is kept, cut to 300 characters', () => {
    expect(statusError(reply(422, JSON.stringify({ detail: 'Invalid sampler name' }), 'application/json')).message).toBe(
      '后端拒绝了任务（HTTP 422）：Invalid sampler name',
    )
    expect(errorText(reply(400, JSON.stringify({ error: { message: 'x'.repeat(1000) } })))).toHaveLength(301)
  })

  it('testOutcome: bounded facts on success; our message and code, or a generic one, on failure', async () => {
    expect(await testOutcome(async () => ({ message: 'ok', version: 'v'.repeat(100), models: ['a', 'b'.repeat(300)] }))).toEqual({
      ok: true,
      message: 'ok',
      detail: { version: `${'v'.repeat(60)}…`, models: ['a', `${'b'.repeat(200)}…`] },
    })
    expect(await testOutcome(async () => JSON.parse(html) as never)).toEqual({ ok: false, message: '连接测试失败（内部错误，详见服务器日志）', detail: {} })
  })
})

describe('send() and an answer cut off after its status line', () => {
  let cutting: http.Server
  let url: string
  beforeAll(async () => {
    cutting = http.createServer((req, res) => {
      const query = new URL(req.url!, 'http://x').searchParams
      res.writeHead(Number(query.get('status')), { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"id":"cgt-2026')
      // A close (FIN), a reset (RST, as a load balancer may send), or nothing more until the caller's timeout.
      const how = query.get('how') ?? 'close'
      if (how === 'close') setTimeout(() => res.socket?.destroy(), 10)
      if (how === 'reset') setTimeout(() => res.socket?.resetAndDestroy(), 10)
    })
    await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(cutting.address() as AddressInfo).port}/tasks`
  })
  afterAll(() => new Promise<void>((resolve) => cutting.close(() => resolve())))

  it('a call that makes a billed job: a 2xx was accepted, so the failure is final, however the body ended', async () => {
    for (const how of ['close', 'reset', 'hang']) {
      const error = await refusal(send(`${url}?status=200&how=${how}`, { json: {}, createsBilledJob: true, timeoutMs: 300 }))
      expect(error, how).toMatchObject({ code: 'BAD_RESPONSE', retryable: false, detail: { status: 200 } })
      expect(error.message).toBe('后端接受了任务，但应答在中途断开（HTTP 200）')
    }
  })

  it('any other call, or a status that is not 2xx, may be tried again', async () => {
    expect(await refusal(send(`${url}?status=200`, { json: {} }))).toMatchObject({ code: 'UNREACHABLE', retryable: true })
    expect(await refusal(send(`${url}?status=200&how=reset`, { json: {} }))).toMatchObject({ code: 'UNREACHABLE', retryable: true })
    expect(await refusal(send(`${url}?status=200&how=hang`, { json: {}, timeoutMs: 300 }))).toMatchObject({ code: 'TIMEOUT', retryable: true })
    expect(await refusal(send(`${url}?status=502`, { json: {}, createsBilledJob: true }))).toMatchObject({ code: 'UNREACHABLE', retryable: true })
  })
})

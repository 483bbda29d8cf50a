import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import { allowedAddresses, MetadataAddressError, systemResolver, type ResolvedAddress, type Resolver } from '@/lib/net/metadata-address'
import { pinnedLookup } from '@/lib/net/safe-fetch'
import { sniffImageType } from '@/lib/uploads/image-upload'
import { BackendError, type TestDetail, type TestResult } from './types'

// The small HTTP client the adapters share, and the mapping of failures to BackendError.
// Built on node:http rather than fetch because fetch gives up on any answer slower than
// 300 s and a large SD batch can take longer: generation calls end by the task's signal.
// Messages and details carry parsed facts only (a status, a JSON error text), never a raw
// body: they reach the console (测试连接, health, task logs) and an endpoint may be internal.

export type HttpRequest = {
  method?: 'GET' | 'POST' | 'DELETE'
  headers?: Record<string, string>
  json?: unknown
  form?: FormData
  /** The task's signal: aborting it gives ABORTED (or TIMEOUT for a deadline). */
  signal?: AbortSignal
  /** A limit of our own, for short calls (progress, uploads, health checks). */
  timeoutMs?: number
  /**
   * The call makes a job the provider bills (a clip, OpenAI images, a Midjourney submit): a
   * 2xx cut off before its body ended was accepted, so it fails the task rather than being
   * sent again.
   */
  createsBilledJob?: boolean
}

export type HttpReply = { status: number; bytes: Buffer; contentType: string | null }

const MAX_REPLY_BYTES = 256 * 1024 * 1024

/**
 * One call to a backend. The host is resolved first and refused when any address is
 * link-local or a cloud metadata address; the connection then goes to the checked
 * addresses only (no second lookup that could answer differently). `resolve` is for tests.
 */
export async function send(url: string, request: HttpRequest = {}, resolve: Resolver = systemResolver): Promise<HttpReply> {
  const target = URL.canParse(url) ? new URL(url) : null
  if (target?.protocol !== 'http:' && target?.protocol !== 'https:') throw new BackendError('UNREACHABLE', `后端地址无效：${url}`, false)
  const timeout = request.timeoutMs ? AbortSignal.timeout(request.timeoutMs) : undefined
  const signals = [request.signal, timeout].filter((s): s is AbortSignal => s !== undefined)
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers }
  let body: Buffer | undefined
  if (request.json !== undefined) {
    body = Buffer.from(JSON.stringify(request.json))
    headers['content-type'] = 'application/json'
  } else if (request.form) {
    const encoded = new Response(request.form)
    body = Buffer.from(await encoded.arrayBuffer())
    headers['content-type'] = encoded.headers.get('content-type')!
  }
  try {
    signal?.throwIfAborted()
    const addresses = await allowedAddresses(target.hostname, resolve)
    signal?.throwIfAborted()
    return await roundTrip(target, addresses, request.method ?? (body ? 'POST' : 'GET'), headers, body, signal)
  } catch (err) {
    if (request.signal?.aborted) throw abortError(request.signal)
    if (err instanceof MetadataAddressError)
      throw new BackendError('UNREACHABLE', `后端地址指向链路本地或云服务器元数据地址，已拒绝连接：${target.host}`, false)
    // Before our own timeout: a 2xx status line came, so the job was made, however the body ended.
    if (err instanceof CutReply && request.createsBilledJob && err.status >= 200 && err.status < 300)
      throw new BackendError('BAD_RESPONSE', `后端接受了任务，但应答在中途断开（HTTP ${err.status}）`, false, { status: err.status })
    if (timeout?.aborted) throw new BackendError('TIMEOUT', `后端 ${target.host} 在 ${request.timeoutMs! / 1000} 秒内没有应答`, true)
    if (err instanceof BackendError) throw err
    // Refused, DNS, TLS, reset: the code says which (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED ...).
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message
    throw new BackendError('UNREACHABLE', `无法连接后端 ${target.host}（${why}）`, true)
  }
}

/** The connection ended after the status line, before the body did. */
class CutReply extends Error {
  constructor(readonly status: number) {
    super('连接在应答中途断开')
  }
}

function roundTrip(
  url: URL,
  addresses: ResolvedAddress[],
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    // Once the status line came, whatever ends the exchange early (a close, a reset, our timeout) cut the reply.
    let status: number | null = null
    const cut = (err: unknown) => reject(err instanceof BackendError || status === null ? err : new CutReply(status))
    const client = url.protocol === 'https:' ? https : http
    const options = {
      method,
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      signal,
      lookup: pinnedLookup(addresses) as unknown as net.LookupFunction,
    }
    const req = client.request(url, options, (res) => {
      status = res.statusCode ?? 0
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_REPLY_BYTES) req.destroy(new BackendError('BAD_RESPONSE', `后端的应答超过 ${MAX_REPLY_BYTES} 字节`, false))
        else chunks.push(chunk)
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), contentType: res.headers['content-type'] ?? null }))
      res.on('error', cut)
      res.on('close', () => {
        if (!res.complete) cut(new Error('closed'))
      })
    })
    req.on('error', cut)
    req.end(body)
  })
}

/** The error for an aborted task signal: a deadline (TimeoutError reason) is TIMEOUT, anything else ABORTED. */
export function abortError(signal: AbortSignal): BackendError {
  const reason: unknown = signal.reason
  if (reason instanceof Error && reason.name === 'TimeoutError') return new BackendError('TIMEOUT', '任务超时，已停止等待后端', false)
  return new BackendError('ABORTED', '任务已取消', false)
}

export function parseJson(reply: HttpReply, retryable = true): unknown {
  try {
    return JSON.parse(reply.bytes.toString('utf8'))
  } catch {
    throw new BackendError('BAD_RESPONSE', `后端的应答不是 JSON（HTTP ${reply.status}）`, retryable, { status: reply.status })
  }
}

/**
 * The job id in the 2xx answer to a create call of a provider that bills per job. That job
 * may have started, so an answer without its id fails the task: sending the call again
 * could start and bill a second one. (Parse such answers with `parseJson(reply, false)`.)
 */
export function acceptedId(id: unknown, missing: string): string {
  if (typeof id !== 'string' || !id) throw new BackendError('BAD_RESPONSE', missing, false)
  return id
}

/** The JSON body of a successful reply; any other status becomes statusError. */
export function okJson(reply: HttpReply): unknown {
  if (reply.status < 200 || reply.status >= 300) throw statusError(reply)
  return parseJson(reply)
}

export async function sendJson(url: string, request: HttpRequest): Promise<unknown> {
  return okJson(await send(url, request))
}

/** Maps a failed HTTP status to a BackendError; `text` replaces the message the body gives. */
export function statusError(reply: HttpReply, text = errorText(reply)): BackendError {
  const { status } = reply
  const suffix = text ? `：${text}` : ''
  const detail = { status }
  if (status === 401 || status === 403)
    return new BackendError('UNAUTHORIZED', `后端拒绝了凭据（HTTP ${status}），请检查账号密码或密钥${suffix}`, false, detail)
  if (status === 429 || status === 503) return new BackendError('BUSY', `后端繁忙（HTTP ${status}）${suffix}`, true, detail)
  if (status >= 500) return new BackendError('UPSTREAM_FAILED', `后端出错（HTTP ${status}）${suffix}`, true, detail)
  return new BackendError('REJECTED', `后端拒绝了任务（HTTP ${status}）${suffix}`, false, detail)
}

/**
 * The readable part of a JSON error body: FastAPI's `detail` (text or validation list),
 * A1111's `errors`, or an `error` that is text or `{message}` (OpenAI, ComfyUI). A body
 * that is not JSON, or JSON without those fields, gives '' (never the raw text).
 */
export function errorText(reply: HttpReply): string {
  let body: unknown
  try {
    body = JSON.parse(reply.bytes.toString('utf8'))
  } catch {
    return ''
  }
  if (!isRecord(body)) return ''
  for (const part of [body.detail, body.errors, body.error, body.message]) {
    const text = describe(part)
    if (text) return preview(text, 300)
  }
  return ''
}

function describe(part: unknown): string {
  if (typeof part === 'string') return part.trim()
  if (Array.isArray(part)) return part.map(describe).filter(Boolean).join('；')
  if (!isRecord(part)) return ''
  if (typeof part.msg === 'string') return Array.isArray(part.loc) ? `${part.loc.join('.')}: ${part.msg}` : part.msg
  return typeof part.message === 'string' ? part.message : ''
}

function preview(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The endpoint without trailing slashes, so paths can be appended. */
export function baseUrl(endpoint: string): string {
  return endpoint.trim().replace(/\/+$/, '')
}

export function numberOption(options: Record<string, unknown>, name: string, fallback: number): number {
  const value = options[name]
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback
}

/** Rejects bytes that are not an image before they reach our storage. */
export function checkedImage(bytes: Buffer, where: string): Buffer {
  if (!sniffImageType(bytes)) throw new BackendError('BAD_RESPONSE', `${where}不是图片`, true)
  return bytes
}

/** What a health call found: only facts read out of the answer, never its text. */
export type TestFacts = { message: string; version?: string | null; models?: string[] | null }

/**
 * For test(): the outcome of a health call as a message, never an exception. The detail
 * holds a version and model names, bounded; a failure says only our message and code.
 */
export async function testOutcome(check: () => Promise<TestFacts>): Promise<TestResult> {
  try {
    const { message, version, models } = await check()
    const detail: TestDetail = {}
    if (version) detail.version = preview(version, 60)
    if (models) detail.models = models.slice(0, 500).map((name) => preview(name, 200))
    return { ok: true, message, detail }
  } catch (err) {
    if (err instanceof BackendError) return { ok: false, message: err.message, detail: { code: err.code } }
    console.warn('[backend] connection test failed unexpectedly', err)
    return { ok: false, message: '连接测试失败（内部错误，详见服务器日志）', detail: {} }
  }
}

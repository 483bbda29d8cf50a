import { INTEGRAL_NOT_ENOUGH, emit } from './events'
import { clearToken, getStoredToken } from './token-store'
import { isSignInPath, loginUrlFor } from '@/lib/safe-redirect'

/**
 * The browser's one way to call the API, with the error handling of docs/PRODUCT.md §8:
 * every failure is shown (or turned into an event) here, and the promise rejects with
 * an ApiError so callers only handle success.
 */
export const REQUEST_TIMEOUT_MS = 60_000
/** A streamed answer may take minutes; the server gives up on a silent upstream sooner. */
export const STREAM_TIMEOUT_MS = 10 * 60_000
export const TOAST_MS = 2000
export const MSG_SYSTEM_ERROR = '系统错误'
export const MSG_BUILD_FAILED = '服务器异常，请联系管理员'
export const MSG_NETWORK = '网络异常，请检查网络或联系管理员'
export const INSUFFICIENT_POINTS_PREFIX = '积分不足'

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** An answer that will not change if asked again: a 4xx but 408 and 429; not a network error (0) or a 5xx. */
export const isRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429

type Body = { success?: boolean; data?: unknown; errMessage?: string; message?: string }

/** What the request layer needs from the page; replaced in tests. */
export type RequestEnvironment = {
  toast(message: string, durationMs: number): void
  redirect(url: string): void
  currentPath(): string
  fetch: typeof fetch
}

let environment: RequestEnvironment = {
  toast: () => {},
  redirect: (url) => window.location.assign(url),
  currentPath: () => window.location.pathname + window.location.search,
  fetch: (...args) => globalThis.fetch(...args),
}

export function configureRequest(overrides: Partial<RequestEnvironment>): void {
  environment = { ...environment, ...overrides }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  query?: Record<string, string | number | boolean | undefined | null>
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /** 'blob' for file downloads (CSV exports); errors still arrive as JSON. */
  responseType?: 'json' | 'blob'
  /** The caller shows failures itself (no toast here); 401 and 积分不足 are still handled. */
  silent?: boolean
  /**
   * A call that may answer with server-sent events (AI chat): a 2xx text/event-stream body
   * goes to this reader (no 60 s limit, the caller's signal stops it); a JSON answer is
   * handled like any other.
   */
  onStream?: (body: ReadableStream<Uint8Array>) => Promise<void>
}

function buildRequest(path: string, { method = 'GET', query, body, headers, signal }: RequestOptions, token: string | null, timeout: AbortSignal): Request {
  const url = new URL(path, window.location.origin)
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value))
  }
  // Files go as multipart (the browser sets its boundary), a Blob as raw bytes (upload chunks); everything else as JSON.
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData
  const isBlob = typeof Blob !== 'undefined' && body instanceof Blob
  const type: Record<string, string> = isForm ? {} : { 'Content-Type': isBlob ? 'application/octet-stream' : 'application/json' }
  return new Request(url, {
    method,
    headers: { ...type, ...(token ? { Authorization: token } : {}), ...headers },
    body: body === undefined ? undefined : isForm || isBlob ? (body as BodyInit) : JSON.stringify(body),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  })
}

const messageOf = (body: Body | undefined) => body?.errMessage || body?.message || ''

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const toast = options.silent ? () => {} : environment.toast
  const timeout = AbortSignal.timeout(options.onStream ? STREAM_TIMEOUT_MS : REQUEST_TIMEOUT_MS)
  let req: Request
  const sentToken = getStoredToken()
  try {
    req = buildRequest(path, options, sentToken, timeout)
  } catch (error) {
    toast(MSG_BUILD_FAILED, TOAST_MS)
    throw new ApiError(MSG_BUILD_FAILED, 0, error)
  }

  let res: Response
  try {
    res = await environment.fetch(req)
  } catch (error) {
    if (options.signal?.aborted) throw new ApiError('已取消', 0, error)
    toast(MSG_NETWORK, TOAST_MS)
    throw new ApiError(MSG_NETWORK, 0, error)
  }

  if (res.ok && options.onStream && res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await options.onStream(res.body)
    return undefined as T
  }
  if (res.ok && options.responseType === 'blob') return (await res.blob()) as T
  const body = (await res.json().catch(() => undefined)) as Body | undefined
  const message = messageOf(body)

  if (body?.success === false && message.startsWith(INSUFFICIENT_POINTS_PREFIX)) {
    emit(INTEGRAL_NOT_ENOUGH, body)
    throw new ApiError(message, res.status, body)
  }
  if (res.status === 401) {
    // Only the token this request carried is known to be bad: a sign-in that finished while
    // it was under way stored a fresh one, which stays (and so does the page).
    if (getStoredToken() === sentToken) {
      clearToken()
      // On a sign-in page the user is where a login happens already: sending them round
      // through /login would make the sign-in they are about to do land back here.
      const current = environment.currentPath()
      if (!isSignInPath(current)) environment.redirect(loginUrlFor(current))
    }
    throw new ApiError(message || '请先登录', 401, body)
  }
  if (res.status === 500 || res.status === 502) {
    toast(MSG_SYSTEM_ERROR, TOAST_MS)
    throw new ApiError(MSG_SYSTEM_ERROR, res.status, body)
  }
  if (!res.ok) {
    toast(message || `请求失败（${res.status}）`, TOAST_MS)
    throw new ApiError(message || `请求失败（${res.status}）`, res.status, body)
  }
  if (body?.success === false) {
    toast(message || '操作失败', TOAST_MS)
    throw new ApiError(message || '操作失败', res.status, body)
  }
  return body?.data as T
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], options?: Omit<RequestOptions, 'method' | 'query'>) =>
    request<T>(path, { ...options, method: 'GET', query }),
  stream: (path: string, body: unknown, onStream: NonNullable<RequestOptions['onStream']>, signal?: AbortSignal) =>
    request<void>(path, { method: 'POST', body, onStream, signal }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PATCH', body: body ?? {} }),
  put: <T>(path: string, body: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string) => request<T>(path, { method: 'DELETE' }),
  download: (path: string, query?: RequestOptions['query']) => request<Blob>(path, { method: 'GET', query, responseType: 'blob' }),
  upload: <T>(path: string, file: Blob, field = 'file') => {
    const form = new FormData()
    form.append(field, file)
    return request<T>(path, { method: 'POST', body: form })
  },
}

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ApiError,
  INSUFFICIENT_POINTS_PREFIX,
  MSG_BUILD_FAILED,
  MSG_NETWORK,
  MSG_SYSTEM_ERROR,
  REQUEST_TIMEOUT_MS,
  TOAST_MS,
  api,
  configureRequest,
  request,
} from '@/lib/api-client/request'
import { INTEGRAL_NOT_ENOUGH, on } from '@/lib/api-client/events'
import { TOKEN_KEY } from '@/lib/api-client/token-store'
import { at, only } from '../helpers/present'

/**
 * docs/PRODUCT.md §8 (the error handling) and §7.1 (60 s timeout, bearer header, JSON) for the
 * browser request layer. Vitest runs in node: `window` is a minimal stub with an in-memory
 * localStorage; toast, redirect, current path and fetch are fakes.
 */

class MemoryStorage {
  private items = new Map<string, string>()
  getItem(key: string): string | null {
    return this.items.has(key) ? (this.items.get(key) as string) : null
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value))
  }
  removeItem(key: string): void {
    this.items.delete(key)
  }
  clear(): void {
    this.items.clear()
  }
}

const localStorage = new MemoryStorage()
const CURRENT_PATH = '/my_cards?page=2&tab=已使用'

type Reply = { status?: number; body?: unknown; raw?: string }

let toast: ReturnType<typeof vi.fn<(message: string, durationMs: number) => void>>
let redirect: ReturnType<typeof vi.fn<(url: string) => void>>
let fetchFake: ReturnType<typeof vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>>
let seen: Request[]
const unsubscribers: Array<() => void> = []

function reply({ status = 200, body, raw }: Reply): Response {
  const text = raw ?? JSON.stringify(body)
  return new Response(text, { status, headers: { 'Content-Type': 'application/json' } })
}

/** Every fetch answers with `r`, recording the Request it was given. */
function answerWith(r: Reply): void {
  fetchFake.mockImplementation(async (input) => {
    seen.push(input as Request)
    return reply(r)
  })
}

/** Runs the call and returns what it rejected with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected the request to reject, but it resolved')
}

beforeAll(() => {
  vi.stubGlobal('window', { location: { origin: 'http://localhost' }, localStorage })
})

afterAll(() => {
  vi.unstubAllGlobals()
})

beforeEach(() => {
  localStorage.clear()
  seen = []
  toast = vi.fn<(message: string, durationMs: number) => void>()
  redirect = vi.fn<(url: string) => void>()
  fetchFake = vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>()
  configureRequest({ toast, redirect, currentPath: () => CURRENT_PATH, fetch: fetchFake as unknown as typeof fetch })
})

afterEach(() => {
  while (unsubscribers.length) unsubscribers.pop()?.()
  vi.restoreAllMocks()
})

describe('constants (docs/PRODUCT.md §8 and §9)', () => {
  it('uses a 60 s timeout and 2 s toasts', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(60000)
    expect(TOAST_MS).toBe(2000)
    expect(MSG_SYSTEM_ERROR).toBe('系统错误')
    expect(MSG_BUILD_FAILED).toBe('服务器异常，请联系管理员')
    expect(MSG_NETWORK).toBe('网络异常，请检查网络或联系管理员')
    expect(INSUFFICIENT_POINTS_PREFIX).toBe('积分不足')
  })
})

describe('success', () => {
  it('resolves with data and shows nothing', async () => {
    answerWith({ body: { success: true, data: { list: [{ id: 1 }], total: 1 } } })
    await expect(request('/api/admin/cards')).resolves.toEqual({ list: [{ id: 1 }], total: 1 })
    expect(toast).not.toHaveBeenCalled()
    expect(redirect).not.toHaveBeenCalled()
    expect(fetchFake).toHaveBeenCalledTimes(1)
  })

  it('resolves falsy data as is', async () => {
    answerWith({ body: { success: true, data: 0 } })
    await expect(request('/api/x')).resolves.toBe(0)
    answerWith({ body: { success: true, data: null } })
    await expect(request('/api/x')).resolves.toBeNull()
    expect(toast).not.toHaveBeenCalled()
  })
})

describe('success: false (HTTP 200)', () => {
  it('toasts errMessage for 2000 ms and rejects', async () => {
    answerWith({ body: { success: false, data: null, errMessage: '卡密不存在' } })
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith('卡密不存在', 2000)
    expect(error.message).toBe('卡密不存在')
    expect(error.status).toBe(200)
    expect(error.body).toEqual({ success: false, data: null, errMessage: '卡密不存在' })
    expect(redirect).not.toHaveBeenCalled()
  })

  it('falls back to `message` when errMessage is absent', async () => {
    answerWith({ body: { success: false, data: null, message: '操作失败' } })
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith('操作失败', 2000)
    expect(error.message).toBe('操作失败')
  })

  it('prefers errMessage over message', async () => {
    answerWith({ body: { success: false, errMessage: '甲', message: '乙' } })
    await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledWith('甲', 2000)
  })
})

describe('insufficient points (errMessage starting with 积分不足)', () => {
  it('emits integral-not-enough with the response body, shows no toast, rejects', async () => {
    const body = { success: false, data: null, errMessage: '积分不足，请充值', code: 'INSUFFICIENT_POINTS' }
    answerWith({ status: 402, body })
    const events: unknown[] = []
    unsubscribers.push(on(INTEGRAL_NOT_ENOUGH, (detail) => events.push(detail)))
    expect(INTEGRAL_NOT_ENOUGH).toBe('integral-not-enough')

    const error = await rejection(api.post('/api/tasks', { prompt: 'cat' }))
    expect(toast).not.toHaveBeenCalled()
    expect(redirect).not.toHaveBeenCalled()
    expect(events).toEqual([body])
    expect(error.body).toEqual(body)
    expect(events[0]).toBe(error.body)
    expect(error.message).toBe('积分不足，请充值')
  })

  it('also applies when the answer is HTTP 200 with success false', async () => {
    const body = { success: false, data: null, errMessage: '积分不足' }
    answerWith({ body })
    const events: unknown[] = []
    unsubscribers.push(on('integral-not-enough', (detail) => events.push(detail)))
    await rejection(request('/api/x'))
    expect(toast).not.toHaveBeenCalled()
    expect(events).toEqual([body])
  })

  it('does not apply when 积分不足 is not at the start', async () => {
    answerWith({ body: { success: false, data: null, errMessage: '当前积分不足' } })
    const events: unknown[] = []
    unsubscribers.push(on(INTEGRAL_NOT_ENOUGH, (detail) => events.push(detail)))
    await rejection(request('/api/x'))
    expect(events).toEqual([])
    expect(toast).toHaveBeenCalledWith('当前积分不足', 2000)
  })

  it('does not apply to a successful response', async () => {
    answerWith({ body: { success: true, data: 1, errMessage: '积分不足' } })
    const events: unknown[] = []
    unsubscribers.push(on(INTEGRAL_NOT_ENOUGH, (detail) => events.push(detail)))
    await expect(request('/api/x')).resolves.toBe(1)
    expect(events).toEqual([])
  })
})

describe('HTTP 401', () => {
  it('removes the token and redirects to /login?redirect=<encoded current url>', async () => {
    localStorage.setItem(TOKEN_KEY, 'Bearer abc.def.ghi')
    localStorage.setItem('other', 'kept')
    answerWith({ status: 401, body: { success: false, data: null, errMessage: '请先登录', code: 'UNAUTHORIZED' } })
    const error = await rejection(request('/api/users/profile'))

    expect(localStorage.getItem(TOKEN_KEY)).toBeNull()
    expect(localStorage.getItem('other')).toBe('kept')
    expect(redirect).toHaveBeenCalledTimes(1)
    expect(redirect).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent(CURRENT_PATH)}`)
    const target = new URL(only(redirect.mock.calls)[0], 'http://localhost')
    expect(target.pathname).toBe('/login')
    expect(target.searchParams.get('redirect')).toBe(CURRENT_PATH)
    expect(error.status).toBe(401)
  })

  it('redirects even when the 401 has no JSON body', async () => {
    localStorage.setItem(TOKEN_KEY, 'Bearer t')
    answerWith({ status: 401, raw: 'Unauthorized' })
    const error = await rejection(request('/api/x'))
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull()
    expect(redirect).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent(CURRENT_PATH)}`)
    expect(error.status).toBe(401)
  })
})

describe('HTTP 401 around a sign-in', () => {
  it('on a sign-in page, drops the stale token but stays (no round trip through /login)', async () => {
    configureRequest({ currentPath: () => '/login_by_password' })
    localStorage.setItem(TOKEN_KEY, 'Bearer stale')
    answerWith({ status: 401, body: { success: false, data: null, errMessage: '请先登录' } })
    await rejection(request('/api/users/profile'))
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull()
    expect(redirect).not.toHaveBeenCalled()
  })

  it('keeps a token stored while the failing request was under way, and the page', async () => {
    localStorage.setItem(TOKEN_KEY, 'Bearer stale')
    fetchFake.mockImplementation(async () => {
      // The user signs in while the stale token's request is still out.
      localStorage.setItem(TOKEN_KEY, 'Bearer fresh')
      return reply({ status: 401, body: { success: false, data: null, errMessage: '请先登录' } })
    })
    const error = await rejection(request('/api/users/profile'))
    expect(error.status).toBe(401)
    expect(localStorage.getItem(TOKEN_KEY)).toBe('Bearer fresh')
    expect(redirect).not.toHaveBeenCalled()
  })
})

describe('HTTP 400 and 404', () => {
  it.each([400, 404])('%i toasts the server message then rejects', async (status) => {
    answerWith({ status, body: { success: false, data: null, errMessage: `服务器说 ${status}` } })
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith(`服务器说 ${status}`, 2000)
    expect(error.status).toBe(status)
    expect(error.message).toBe(`服务器说 ${status}`)
    expect(redirect).not.toHaveBeenCalled()
  })

  it('uses `message` when the server sends no errMessage', async () => {
    answerWith({ status: 404, body: { message: '记录不存在' } })
    await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledWith('记录不存在', 2000)
  })

  it('still toasts something readable when the body is not JSON', async () => {
    answerWith({ status: 404, raw: '<html>Not Found</html>' })
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    const [message, duration] = only(toast.mock.calls)
    expect(message.length).toBeGreaterThan(0)
    expect(duration).toBe(2000)
    expect(error.status).toBe(404)
  })
})

describe('HTTP 500 and 502', () => {
  it.each([500, 502])('%i toasts 系统错误 (not the server text)', async (status) => {
    answerWith({ status, body: { success: false, data: null, errMessage: 'stack trace here' } })
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith('系统错误', 2000)
    expect(error.status).toBe(status)
    expect(redirect).not.toHaveBeenCalled()
  })

  it('502 from a proxy with an HTML body toasts 系统错误', async () => {
    answerWith({ status: 502, raw: '<html>Bad Gateway</html>' })
    await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledWith('系统错误', 2000)
  })
})

describe('other statuses', () => {
  it.each([403, 409, 429, 402, 503])('%i toasts errMessage and rejects', async (status) => {
    answerWith({ status, body: { success: false, data: null, errMessage: `错误 ${status}` } })
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith(`错误 ${status}`, 2000)
    expect(error.status).toBe(status)
    expect(redirect).not.toHaveBeenCalled()
  })

  it('403 does not log the user out', async () => {
    localStorage.setItem(TOKEN_KEY, 'Bearer t')
    answerWith({ status: 403, body: { success: false, data: null, errMessage: '没有权限' } })
    await rejection(request('/api/admin/user'))
    expect(localStorage.getItem(TOKEN_KEY)).toBe('Bearer t')
    expect(redirect).not.toHaveBeenCalled()
  })
})

describe('a request that cannot be built', () => {
  it('toasts 服务器异常，请联系管理员 and never calls fetch (unserialisable body)', async () => {
    const error = await rejection(api.post('/api/x', { amount: BigInt(1) }))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith('服务器异常，请联系管理员', 2000)
    expect(fetchFake).not.toHaveBeenCalled()
    expect(error.message).toBe(MSG_BUILD_FAILED)
  })

  it('same for a URL that cannot be parsed', async () => {
    await rejection(request('http://[not a host/api'))
    expect(toast).toHaveBeenCalledWith('服务器异常，请联系管理员', 2000)
    expect(fetchFake).not.toHaveBeenCalled()
  })
})

describe('network failure', () => {
  it('fetch rejecting toasts 网络异常，请检查网络或联系管理员', async () => {
    fetchFake.mockRejectedValue(new TypeError('fetch failed'))
    const error = await rejection(request('/api/x'))
    expect(toast).toHaveBeenCalledTimes(1)
    expect(toast).toHaveBeenCalledWith('网络异常，请检查网络或联系管理员', 2000)
    expect(error.message).toBe(MSG_NETWORK)
    expect(redirect).not.toHaveBeenCalled()
  })

  it('a call the caller aborted rejects without a toast', async () => {
    const controller = new AbortController()
    fetchFake.mockImplementation(async () => {
      controller.abort()
      throw new DOMException('aborted', 'AbortError')
    })
    await rejection(request('/api/x', { signal: controller.signal }))
    expect(toast).not.toHaveBeenCalled()
  })
})

describe('request shape (docs/PRODUCT.md §7.1)', () => {
  it('sends the stored bearer token and a JSON content type', async () => {
    localStorage.setItem(TOKEN_KEY, 'Bearer abc.def.ghi')
    answerWith({ body: { success: true, data: null } })
    await request('/api/users/profile')
    const req = at(seen, 0)
    expect(req).toBeInstanceOf(Request)
    expect(req.headers.get('Authorization')).toBe('Bearer abc.def.ghi')
    expect(req.headers.get('Content-Type')).toBe('application/json')
    expect(req.method).toBe('GET')
    expect(req.url).toBe('http://localhost/api/users/profile')
  })

  it('sends no Authorization header without a token', async () => {
    answerWith({ body: { success: true, data: null } })
    await request('/api/site-config/site-info')
    expect(at(seen, 0).headers.has('Authorization')).toBe(false)
    expect(at(seen, 0).headers.get('Content-Type')).toBe('application/json')
  })

  it('encodes query params and drops empty ones', async () => {
    answerWith({ body: { success: true, data: null } })
    await api.get('/api/admin/cards', {
      page: 1,
      pageSize: 20,
      keyword: '卡 密&x=1',
      zero: 0,
      flag: false,
      empty: '',
      nothing: null,
      missing: undefined,
    })
    const url = new URL(at(seen, 0).url)
    expect(url.pathname).toBe('/api/admin/cards')
    expect([...url.searchParams.keys()]).toEqual(['page', 'pageSize', 'keyword', 'zero', 'flag'])
    expect(url.searchParams.get('keyword')).toBe('卡 密&x=1')
    expect(url.searchParams.get('zero')).toBe('0')
    expect(url.searchParams.get('flag')).toBe('false')
    expect(at(seen, 0).url).not.toContain('卡 密&x=1')
    expect(at(seen, 0).url).not.toMatch(/empty|nothing|missing/)
  })

  it('POST sends the JSON body; api.post defaults it to {}', async () => {
    answerWith({ body: { success: true, data: null } })
    await api.post('/api/admin/cards/batch_import', { cards: ['a', 'b'] })
    expect(at(seen, 0).method).toBe('POST')
    expect(await at(seen, 0).json()).toEqual({ cards: ['a', 'b'] })
    await api.post('/api/admin/tasks/recommend/1')
    expect(await at(seen, 1).text()).toBe('{}')
    await api.patch('/api/site-config/name', { value: 'x' })
    expect(at(seen, 2).method).toBe('PATCH')
    await api.delete('/api/admin/user/1')
    expect(at(seen, 3).method).toBe('DELETE')
    expect(at(seen, 3).body).toBeNull()
  })

  it('attaches a 60 s timeout signal', async () => {
    const timeout = new AbortController()
    const spy = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout.signal)
    answerWith({ body: { success: true, data: null } })
    await request('/api/x')
    expect(spy).toHaveBeenCalledWith(60000)
    const req = at(seen, 0)
    expect(req.signal.aborted).toBe(false)
    timeout.abort(new DOMException('timed out', 'TimeoutError'))
    expect(req.signal.aborted).toBe(true)
  })

  it('keeps the timeout when the caller passes its own signal', async () => {
    const timeout = new AbortController()
    vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout.signal)
    const caller = new AbortController()
    answerWith({ body: { success: true, data: null } })
    await request('/api/x', { signal: caller.signal })
    await request('/api/x', { signal: new AbortController().signal })
    caller.abort()
    expect(at(seen, 0).signal.aborted).toBe(true)
    expect(at(seen, 1).signal.aborted).toBe(false)
    timeout.abort(new DOMException('timed out', 'TimeoutError'))
    expect(at(seen, 1).signal.aborted).toBe(true)
  })

  it('a request that times out is reported as a network problem', async () => {
    const timeout = new AbortController()
    vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout.signal)
    fetchFake.mockImplementation(
      (input) =>
        new Promise<Response>((_, reject) => {
          const signal = (input as Request).signal
          signal.addEventListener('abort', () => reject(signal.reason))
        }),
    )
    const pending = request('/api/slow')
    timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    await rejection(pending)
    expect(toast).toHaveBeenCalledWith('网络异常，请检查网络或联系管理员', 2000)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from '@/lib/zod'
import { describeZodError, errorToResponse, fail, ok } from '@/lib/http/envelope'
import { AppError, ERROR_STATUS, badRequest, conflict, forbidden, notFound, tooManyRequests, unauthorized, type ErrorCode } from '@/lib/http/app-error'

async function read(res: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('ok()', () => {
  it('wraps data as { success: true, data } with status 200', async () => {
    const { status, body } = await read(ok({ list: [1, 2], total: 2 }))
    expect(status).toBe(200)
    expect(body).toEqual({ success: true, data: { list: [1, 2], total: 2 } })
  })

  it('keeps falsy data and honours init', async () => {
    expect((await read(ok(null))).body).toEqual({ success: true, data: null })
    expect((await read(ok(0))).body).toEqual({ success: true, data: 0 })
    const res = ok({ id: 1 }, { status: 201, headers: { 'X-Test': '1' } })
    expect(res.status).toBe(201)
    expect(res.headers.get('X-Test')).toBe('1')
  })
})

describe('caching', () => {
  it('answers and errors are private and not stored, unless the route sets its own Cache-Control', () => {
    expect(ok({ id: 1 }).headers.get('cache-control')).toBe('private, no-store')
    expect(ok({ id: 1 }, { headers: { 'X-Test': '1' } }).headers.get('cache-control')).toBe('private, no-store')
    expect(fail(404, 'NOT_FOUND', '不存在').headers.get('cache-control')).toBe('private, no-store')
    expect(errorToResponse(notFound('订单不存在')).headers.get('cache-control')).toBe('private, no-store')
    expect(ok({ ok: true }, { headers: { 'Cache-Control': 'public, max-age=60' } }).headers.get('cache-control')).toBe('public, max-age=60')
  })
})

describe('fail()', () => {
  it('builds { success: false, data: null, errMessage, code }', async () => {
    const { status, body } = await read(fail(418, 'TEAPOT', '我是茶壶'))
    expect(status).toBe(418)
    expect(body).toEqual({ success: false, data: null, errMessage: '我是茶壶', code: 'TEAPOT' })
  })
})

describe('AppError', () => {
  const expected: Record<ErrorCode, number> = {
    BAD_REQUEST: 400,
    UNAUTHORIZED: 401,
    INSUFFICIENT_POINTS: 402,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    CONFLICT: 409,
    PAYLOAD_TOO_LARGE: 413,
    TOO_MANY_REQUESTS: 429,
    INTERNAL: 500,
    BAD_GATEWAY: 502,
    SERVICE_UNAVAILABLE: 503,
  }

  it('the status table is exactly the documented one', () => {
    expect(ERROR_STATUS).toEqual(expected)
  })

  it.each(Object.entries(expected) as Array<[ErrorCode, number]>)('%s → HTTP %i with the envelope', async (code, status) => {
    const error = new AppError(code, `消息 ${code}`)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('AppError')
    expect(error.code).toBe(code)
    expect(error.status).toBe(status)
    const res = await read(errorToResponse(error))
    expect(res.status).toBe(status)
    expect(res.body).toEqual({ success: false, data: null, errMessage: `消息 ${code}`, code })
  })

  it('helpers carry the right code and default messages', () => {
    expect(badRequest('坏').code).toBe('BAD_REQUEST')
    expect(badRequest('坏').message).toBe('坏')
    expect(notFound().code).toBe('NOT_FOUND')
    expect(notFound().message).toBe('记录不存在')
    expect(forbidden().code).toBe('FORBIDDEN')
    expect(forbidden().message).toBe('没有权限')
    expect(unauthorized().code).toBe('UNAUTHORIZED')
    expect(unauthorized().message).toBe('请先登录')
    expect(conflict('重复').status).toBe(409)
    expect(tooManyRequests('太快').status).toBe(429)
  })

  it('an insufficient-points error reaches the client with the 积分不足 prefix it reacts to', async () => {
    const res = await read(errorToResponse(new AppError('INSUFFICIENT_POINTS', '积分不足，需要 10 积分')))
    expect(res.status).toBe(402)
    expect(String(res.body.errMessage).startsWith('积分不足')).toBe(true)
  })
})

describe('ZodError', () => {
  const schema = z.object({ cards: z.array(z.string().min(1)).min(1), page: z.number().int() })

  it('→ 400 BAD_REQUEST with a readable Chinese message naming the field by its label, never its path', async () => {
    const parsed = schema.safeParse({ cards: ['a'], page: 'x' })
    if (parsed.success) throw new Error('expected the parse to fail')
    const res = await read(errorToResponse(parsed.error))
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.data).toBeNull()
    expect(res.body.code).toBe('BAD_REQUEST')
    expect(res.body.errMessage).toBe('页码的格式不正确')
  })

  it("keeps a schema's own message as it is, without the path", () => {
    const own = z.object({ username: z.string().regex(/^[a-z]{3,}$/, '用户名为 3 位以上小写字母') })
    const parsed = own.safeParse({ username: 'X' })
    if (parsed.success) throw new Error('expected the parse to fail')
    expect(describeZodError(parsed.error)).toBe('用户名为 3 位以上小写字母')
  })

  it.each([
    [{ cards: [''], page: 1 }, '请填写卡密'],
    [{ cards: [], page: 1 }, '卡密至少 1 项'],
    [{ page: 1 }, '请填写卡密'],
    [{ cards: ['a'], page: 1.5 }, '页码必须是整数'],
  ])('says what is wrong with %j in words: %s', (input, expected) => {
    const parsed = schema.safeParse(input)
    if (parsed.success) throw new Error('expected the parse to fail')
    const message = describeZodError(parsed.error)
    expect(message).toBe(expected)
    expect(message).not.toMatch(/cards|page|\.0|:/)
  })

  it('words limits and unknown fields', () => {
    const limits = z.object({ steps: z.number().max(150), pageSize: z.number().min(1), extra: z.string().max(3) }).strict()
    const first = (input: unknown) => {
      const parsed = limits.safeParse(input)
      if (parsed.success) throw new Error('expected the parse to fail')
      return describeZodError(parsed.error)
    }
    expect(first({ steps: 151, pageSize: 1, extra: '' })).toBe('采样步数不能大于 150')
    expect(first({ steps: 1, pageSize: 0, extra: '' })).toBe('每页条数不能小于 1')
    expect(first({ steps: 1, pageSize: 1, extra: 'abcd' })).toMatch(/^数值过大/)
    expect(first({ steps: 1, pageSize: 1, extra: '', role: 'ADMIN' })).toBe('不支持的参数：role')
  })

  it('thrown by schema.parse is handled too', async () => {
    let thrown: unknown
    try {
      schema.parse({ page: 1 })
    } catch (error) {
      thrown = error
    }
    const res = await read(errorToResponse(thrown))
    expect(res.status).toBe(400)
    expect(res.body.errMessage).toBe('请填写卡密')
  })

  it('with no issue gives a generic message', () => {
    expect(describeZodError(new z.ZodError([]))).toBe('请求参数有误')
  })
})

describe('Prisma-like errors', () => {
  it('P2002 (unique) → 409 CONFLICT', async () => {
    const res = await read(errorToResponse(Object.assign(new Error('Unique constraint failed'), { code: 'P2002' })))
    expect(res.status).toBe(409)
    expect(res.body).toMatchObject({ success: false, data: null, code: 'CONFLICT' })
    expect(String(res.body.errMessage)).toMatch(/[\u4e00-\u9fff]/)
  })

  it('P2025 (not found) → 404 NOT_FOUND', async () => {
    const res = await read(errorToResponse({ code: 'P2025' }))
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ success: false, data: null, code: 'NOT_FOUND' })
  })
})

describe('a row still referenced (Prisma P2003)', () => {
  it('→ 409 with a readable message', async () => {
    const res = await read(errorToResponse({ code: 'P2003', message: 'fk' }))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ success: false, data: null, errMessage: '记录仍被其他数据引用，无法删除', code: 'CONFLICT' })
  })
})

describe('transaction conflicts', () => {
  it.each([
    ["Prisma's write conflict or deadlock", { code: 'P2034', message: 'write conflict' }],
    ['a deadlock through the driver adapter', { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '40P01' } } } }],
    ['a serialization failure', { cause: { originalCode: '40001' } }],
  ])('%s → 503 系统繁忙 (nothing was written: try again)', async (_name, error) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const res = await read(errorToResponse(error))
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ success: false, data: null, errMessage: '系统繁忙，请稍后再试', code: 'SERVICE_UNAVAILABLE' })
    expect(warn).toHaveBeenCalled()
  })
})

describe('unknown errors', () => {
  it.each([
    ['an Error', new Error('connection reset: secret details')],
    ['another Prisma code', { code: 'P2036', message: 'external error' }],
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
  ])('%s → 500 系统错误 without leaking details', async (_name, error) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await read(errorToResponse(error))
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ success: false, data: null, errMessage: '系统错误', code: 'INTERNAL' })
    expect(log).toHaveBeenCalled()
  })
})

describe('an overloaded database (Prisma P2028)', () => {
  it('→ 503 系统繁忙', async () => {
    const res = await errorToResponse({ code: 'P2028', message: 'Unable to start a transaction in the given time.' })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ success: false, data: null, errMessage: '系统繁忙，请稍后再试', code: 'SERVICE_UNAVAILABLE' })
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from '@/lib/zod'
import { describeZodError, errorToResponse, fail, ok } from '@/lib/http/envelope'
import {
  AppError,
  ERROR_STATUS,
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
  type ErrorCode,
} from '@/lib/http/app-error'

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

  it('→ 400 BAD_REQUEST with a readable Chinese message naming the field', async () => {
    const parsed = schema.safeParse({ cards: ['a'], page: 'x' })
    if (parsed.success) throw new Error('expected the parse to fail')
    const res = await read(errorToResponse(parsed.error))
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.data).toBeNull()
    expect(res.body.code).toBe('BAD_REQUEST')
    const message = String(res.body.errMessage)
    expect(message).toContain('page')
    expect(message).toMatch(/[\u4e00-\u9fff]/)
    expect(message.startsWith('参数错误')).toBe(true)
    // zod's own English text must not leak through (lib/zod sets the zh-CN locale)
    expect(message).not.toMatch(/Invalid input|expected number/i)
  })

  it('names nested fields with their path', () => {
    const parsed = schema.safeParse({ cards: [''], page: 1 })
    if (parsed.success) throw new Error('expected the parse to fail')
    expect(describeZodError(parsed.error)).toContain('cards.0')
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
    expect(String(res.body.errMessage)).toContain('cards')
  })

  it('with no issue gives a generic message', () => {
    expect(describeZodError(new z.ZodError([]))).toBe('请求参数错误')
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

describe('unknown errors', () => {
  it.each([
    ['an Error', new Error('connection reset: secret details')],
    ['another Prisma code', { code: 'P2034', message: 'write conflict' }],
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

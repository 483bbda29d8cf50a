import { z } from '@/lib/zod'
import { AppError, ERROR_STATUS } from './app-error'
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, isTransactionConflict } from './database-unavailable'
import { fieldLabel } from './field-labels'
import { JsonList, JsonText } from './json-list'

/** The response shape of every endpoint (docs/PRODUCT.md §7.1). */
export type Envelope<T> = { success: true; data: T } | { success: false; data: null; errMessage: string; code: string }

/**
 * An answer depends on its caller or may change at any moment, so no CDN or browser keeps it
 * (a CDN that caches by path would otherwise hand one user's profile to the next), unless the
 * route says otherwise with a Cache-Control of its own.
 */
const NOT_KEPT = 'private, no-store'

function headersOf(init: ResponseInit | undefined, contentType?: string): Headers {
  const headers = new Headers(init?.headers)
  if (!headers.has('cache-control')) headers.set('cache-control', NOT_KEPT)
  if (contentType && !headers.has('content-type')) headers.set('content-type', contentType)
  return headers
}

export function ok<T>(data: T, init?: ResponseInit): Response {
  if (data instanceof JsonList || data instanceof JsonText) {
    // The same bytes Response.json would send, with PostgreSQL's JSON passed through as it came.
    return new Response(`{"success":true,"data":${data.toJsonText()}}`, { ...init, headers: headersOf(init, 'application/json') })
  }
  return Response.json({ success: true, data } satisfies Envelope<T>, { ...init, headers: headersOf(init) })
}

export function fail(status: number, code: string, errMessage: string): Response {
  return Response.json({ success: false, data: null, errMessage, code } satisfies Envelope<never>, { status, headers: { 'cache-control': NOT_KEPT } })
}

/** zod's own (locale) messages: they say what kind of value was wrong, not what it means. */
const GENERIC_MESSAGE = /^(无效|数值过大|数值过小|出现未知的键|.+ 中的键\(key\)无效|.+ 中包含无效值)/

type Issue = z.core.$ZodIssue

/** A generic issue in words, with the field's label. */
function describeGeneric(issue: Issue, label: string): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.message.endsWith('undefined')) return `请填写${label}`
      return issue.expected === 'int' ? `${label}必须是整数` : `${label}的格式不正确`
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? `请填写${label}` : `${label}至少 ${issue.minimum} 个字符`
      if (issue.origin === 'array' || issue.origin === 'set') return `${label}至少 ${issue.minimum} 项`
      return `${label}不能小于 ${issue.minimum}`
    case 'too_big':
      if (issue.origin === 'string') return `${label}最多 ${issue.maximum} 个字符`
      if (issue.origin === 'array' || issue.origin === 'set') return `${label}最多 ${issue.maximum} 项`
      return `${label}不能大于 ${issue.maximum}`
    case 'not_multiple_of':
      return issue.divisor === 1 ? `${label}必须是整数` : `${label}必须是 ${issue.divisor} 的倍数`
    case 'invalid_value':
      return `${label}的取值不在可选范围内`
    default:
      return `${label}不正确`
  }
}

/**
 * Readable Chinese for a zod failure, as a person reads it: the schema's own message, or
 * for zod's generic ones a sentence naming the field by its label (never a field path).
 * `wholeValueLabel` names a value parsed on its own (no field around it).
 */
export function describeZodError(error: z.ZodError, wholeValueLabel?: string): string {
  const issue = error.issues[0]
  if (!issue) return '请求参数有误'
  if (issue.code === 'unrecognized_keys') return `不支持的参数：${issue.keys.join('、')}`
  if (!GENERIC_MESSAGE.test(issue.message)) return issue.message
  const label = issue.path.length ? fieldLabel(issue.path) : wholeValueLabel
  if (label) return describeGeneric(issue, label)
  // The body itself is not what the route takes (not a JSON object, say): no field to name.
  if (!issue.path.length && issue.code === 'invalid_type') return '请求内容的格式不正确'
  return issue.message
}

type PrismaLikeError = { code?: unknown; name?: unknown }

/** Maps anything thrown by a handler to the envelope and status (docs/PRODUCT.md §7.1). */
export function errorToResponse(error: unknown): Response {
  if (error instanceof AppError) return fail(error.status, error.code, error.message)
  if (error instanceof z.ZodError) return fail(400, 'BAD_REQUEST', describeZodError(error))
  const code = (error as PrismaLikeError)?.code
  if (code === 'P2002') return fail(ERROR_STATUS.CONFLICT, 'CONFLICT', '记录已存在')
  if (code === 'P2025') return fail(ERROR_STATUS.NOT_FOUND, 'NOT_FOUND', '记录不存在')
  if (code === 'P2003') return fail(ERROR_STATUS.CONFLICT, 'CONFLICT', '记录仍被其他数据引用，无法删除')
  // No database connection came free in time: the server is overloaded, not broken.
  if (code === 'P2028') return fail(ERROR_STATUS.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', '系统繁忙，请稍后再试')
  // Ended by PostgreSQL for another transaction's sake (a deadlock): nothing written, worth another try.
  if (isTransactionConflict(error)) {
    console.warn(`[api] transaction conflict: ${firstLine(error)}`)
    return fail(ERROR_STATUS.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', '系统繁忙，请稍后再试')
  }
  if (isDatabaseUnavailable(error)) {
    // One line, not the stack: during an outage every request ends here.
    console.error(`[api] database unavailable: ${firstLine(error)}`)
    return fail(ERROR_STATUS.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE)
  }
  console.error('[api] unexpected error', error)
  return fail(500, 'INTERNAL', '系统错误')
}

function firstLine(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown }
  const text = typeof message === 'string' ? message.trim().split('\n').at(-1) : String(error)
  return typeof code === 'string' ? `${code} ${text}` : `${text}`
}

import { z } from '@/lib/zod'
import { AppError, ERROR_STATUS } from './app-error'

/** The response shape of every endpoint (SPEC section 3). */
export type Envelope<T> =
  | { success: true; data: T }
  | { success: false; data: null; errMessage: string; code: string }

export function ok<T>(data: T, init?: ResponseInit): Response {
  return Response.json({ success: true, data } satisfies Envelope<T>, init)
}

export function fail(status: number, code: string, errMessage: string): Response {
  return Response.json({ success: false, data: null, errMessage, code } satisfies Envelope<never>, { status })
}

/** Readable Chinese text for a zod failure, naming the field. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return '请求参数错误'
  const where = issue.path.length ? `${issue.path.join('.')}: ` : ''
  return `参数错误：${where}${issue.message}`
}

type PrismaLikeError = { code?: unknown; name?: unknown }

/** Maps anything thrown by a handler to the envelope and status (DESIGN.md "API conventions"). */
export function errorToResponse(error: unknown): Response {
  if (error instanceof AppError) return fail(error.status, error.code, error.message)
  if (error instanceof z.ZodError) return fail(400, 'BAD_REQUEST', describeZodError(error))
  const code = (error as PrismaLikeError)?.code
  if (code === 'P2002') return fail(ERROR_STATUS.CONFLICT, 'CONFLICT', '记录已存在')
  if (code === 'P2025') return fail(ERROR_STATUS.NOT_FOUND, 'NOT_FOUND', '记录不存在')
  if (code === 'P2003') return fail(ERROR_STATUS.CONFLICT, 'CONFLICT', '记录仍被其他数据引用，无法删除')
  // No database connection came free in time: the server is overloaded, not broken.
  if (code === 'P2028') return fail(ERROR_STATUS.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', '系统繁忙，请稍后再试')
  console.error('[api] unexpected error', error)
  return fail(500, 'INTERNAL', '系统错误')
}

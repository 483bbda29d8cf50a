/** The one error type of the server. Its code decides the HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_POINTS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The request body is over the route's limit (refused before it is read). */
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  /** A service the request needs (SMS, WeChat) is not set up; the message says what to do. */
  SERVICE_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export class AppError extends Error {
  readonly code: ErrorCode
  constructor(code: ErrorCode, message: string) {
    super(message)
    this.name = 'AppError'
    this.code = code
  }
  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message)
export const notFound = (message = '记录不存在') => new AppError('NOT_FOUND', message)
export const forbidden = (message = '没有权限') => new AppError('FORBIDDEN', message)
export const unauthorized = (message = '请先登录') => new AppError('UNAUTHORIZED', message)
export const conflict = (message: string) => new AppError('CONFLICT', message)
export const tooManyRequests = (message: string) => new AppError('TOO_MANY_REQUESTS', message)
export const serviceUnavailable = (message: string) => new AppError('SERVICE_UNAVAILABLE', message)

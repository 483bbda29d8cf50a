/** docs/PRODUCT.md §7.1: what a request that could not reach the database answers (503). */
export const DATABASE_UNAVAILABLE_MESSAGE = '数据库暂时不可用，请稍后重试'

/** Prisma's codes for a database it cannot reach, lost, timed out or that has no connection left. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037'])
/** The driver adapter's kinds for the same (Prisma wraps raw queries' as P2010, naming the kind). */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'])
/** SQLSTATE: connection exceptions (08…), the server shutting down or starting (57P01-57P03), too many connections. */
const SQLSTATE = /^(08...|57P0[1-3]|53300)$/
/**
 * pg's own errors carry no code, only these messages: the connection ended, a new one or a
 * pooled one did not come in time (lib/db.ts), an answer did not come in time.
 */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout expired$/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
]

type Inspectable = { code?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } }

/**
 * Whether an error means the database could not be reached or answered too late, as
 * opposed to a query it refused: Prisma's errors, the driver adapter's and pg's, looked
 * for through `cause` and Prisma's `meta.driverAdapterError`. Node's socket codes
 * (ECONNREFUSED, ECONNRESET) are not read on their own: the adapter turns pg's into
 * P1001/P1017, and a bare one comes from some other service (a generation backend).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false
  const { code, message, cause, meta } = error as Inspectable
  if (typeof code === 'string' && (PRISMA_CODES.has(code) || SQLSTATE.test(code))) return true
  if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) return true
  const kind = (cause as { kind?: unknown } | undefined)?.kind
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true
  const originalCode = (cause as { originalCode?: unknown; code?: unknown } | undefined)?.originalCode
  if (typeof originalCode === 'string' && SQLSTATE.test(originalCode)) return true
  return isDatabaseUnavailable(cause, depth + 1) || isDatabaseUnavailable(meta?.driverAdapterError, depth + 1)
}

/** SQLSTATE of a transaction PostgreSQL broke off to let another through: a deadlock, a serialization failure. */
const CONFLICT_SQLSTATE = /^(40P01|40001)$/

/**
 * Whether an error is PostgreSQL ending this transaction for another's sake (Prisma's P2034,
 * or the SQLSTATE through the driver adapter): nothing was written, and the same request
 * sent again would most likely pass.
 */
export function isTransactionConflict(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false
  const { code, cause, meta } = error as Inspectable
  if (code === 'P2034' || (typeof code === 'string' && CONFLICT_SQLSTATE.test(code))) return true
  const originalCode = (cause as { originalCode?: unknown } | undefined)?.originalCode
  if (typeof originalCode === 'string' && CONFLICT_SQLSTATE.test(originalCode)) return true
  return isTransactionConflict(cause, depth + 1) || isTransactionConflict(meta?.driverAdapterError, depth + 1)
}

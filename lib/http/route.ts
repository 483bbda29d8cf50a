import type { z } from 'zod'
import { resolveSessionUser, type SessionUser } from '@/lib/auth/session'
import { canEnterAdmin, isAdmin } from '@/lib/auth/permissions'
import { AppError, badRequest, forbidden, unauthorized } from './app-error'
import { JSON_BODY_LIMIT, assertDeclaredLength, jsonTooDeep, readTextWithin } from './body-limit'
import { clientIp } from './client-ip'
import { errorToResponse, ok } from './envelope'
import { mayHoldUnstorable, unstorable, withoutNul } from './no-nul'

/** Who may call: anyone, any signed-in user, the admin console (ADMIN/MANAGER), or ADMIN only. */
export type Access = 'public' | 'user' | 'console' | 'admin'

type Schema = z.ZodType
type Out<S> = S extends Schema ? z.output<S> : undefined

type Context<A extends Access, P, Q, B> = {
  req: Request
  user: A extends 'public' ? SessionUser | null : SessionUser
  params: Out<P>
  query: Out<Q>
  body: Out<B>
  ip: string
}

type Options<A extends Access, P, Q, B> = {
  access: A
  params?: P
  query?: Q
  body?: B
  /** Largest request body in bytes (default 1MB): bigger ones are a 413 before they are read. */
  maxBodyBytes?: number
}

type RouteContext = { params: Promise<Record<string, string | string[]>> }

/**
 * Wraps a route handler: resolves the caller and checks their role against the
 * database, parses params, query and body with zod, calls the handler and puts its
 * result (or error) into the one response envelope. A body over the route's limit is
 * refused first, before the caller is even looked up.
 */
export function route<
  A extends Access,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(options: Options<A, P, Q, B>, handler: (ctx: Context<A, P, Q, B>) => Promise<unknown>) {
  return async (req: Request, segment?: RouteContext): Promise<Response> => {
    try {
      const maxBodyBytes = options.maxBodyBytes ?? JSON_BODY_LIMIT
      assertDeclaredLength(req, maxBodyBytes)
      const user = await authorize(req, options.access)
      const params = options.params ? options.params.parse(withoutNul((await segment?.params) ?? {})) : undefined
      const query = options.query ? options.query.parse(withoutNul(Object.fromEntries(new URL(req.url).searchParams))) : undefined
      const body = options.body ? parseBody(options.body, await readJson(req, maxBodyBytes)) : undefined
      const result = await handler({ req, user, params, query, body, ip: clientIp(req.headers) } as Context<A, P, Q, B>)
      return result instanceof Response ? result : ok(result ?? null)
    } catch (error) {
      return errorToResponse(error)
    }
  }
}

async function authorize(req: Request, access: Access): Promise<SessionUser | null> {
  const user = await resolveSessionUser(req.headers)
  if (access === 'public') return user
  if (!user) throw unauthorized()
  if (access === 'console' && !canEnterAdmin(user.role)) throw forbidden()
  if (access === 'admin' && !isAdmin(user.role)) throw forbidden()
  return user
}

const TOO_DEEP = '请求体嵌套过深'

async function readJson(req: Request, limit: number): Promise<unknown> {
  const text = await readTextWithin(req, limit)
  if (!text) return {}
  if (jsonTooDeep(text)) throw badRequest(TOO_DEEP)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw badRequest('请求体不是合法的 JSON')
  }
  if (mayHoldUnstorable(text)) JSON.parse(text, unstorable)
  return parsed
}

/** zod's parse; a stack overflow in it (a value nested too deep for recursion) is bad input, not a crash. */
function parseBody(schema: Schema, value: unknown): unknown {
  try {
    return schema.parse(value)
  } catch (error) {
    if (error instanceof RangeError) throw badRequest(TOO_DEEP)
    throw error
  }
}

export { AppError }

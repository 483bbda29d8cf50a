import { hashPassword } from '@/lib/auth/password'
import { issueToken } from '@/lib/auth/token'
import { db } from '@/lib/db'
import type { Role } from '@/lib/generated/prisma/enums'
import { postMovement } from '@/lib/ledger/post-movement'

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

export type CallOptions = {
  method?: string
  body?: unknown
  /** A raw token (without 'Bearer '), as the API returns it. */
  token?: string
  params?: Record<string, string>
  query?: Record<string, string | number>
  ip?: string
  headers?: Record<string, string>
}

export type CallResult<T = any> = { status: number; body: { success: boolean; data: T; errMessage?: string; code?: string } }

/**
 * Calls a route handler the way Next.js does, with a real Request, against the test
 * database: no server, no mocks.
 */
export async function callRoute<T = any>(handler: Handler, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL('http://localhost/api/test')
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v))
  const headers = new Headers({ 'content-type': 'application/json', 'x-client-ip': options.ip ?? '10.0.0.1', ...options.headers })
  if (options.token) headers.set('authorization', `Bearer ${options.token}`)
  const req = new Request(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  })
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) })
  return { status: res.status, body: await res.json() }
}

let counter = 0

/** Creates a user straight in the database and returns it with a valid token. */
export async function createUser(options: { role?: Role; username?: string; password?: string; points?: number; balance?: number; name?: string } = {}) {
  const username = options.username ?? `user${Date.now().toString(36)}${counter++}`
  const user = await db().user.create({
    data: {
      username,
      name: options.name ?? username,
      role: options.role ?? 'USER',
      passwordHash: await hashPassword(options.password ?? 'a-good-password'),
    },
  })
  return withOpening(user.id, options, 'test-opening')
}

/**
 * Gives a new user its opening points and balance through the ledger (so the ledger
 * invariant holds in every test) and returns the fresh row with a valid token.
 */
export async function withOpening(userId: string, opening: { points?: number; balance?: number }, referencePrefix: string) {
  if (opening.points || opening.balance) {
    await db().$transaction(async (tx) => {
      for (const [account, amount] of [
        ['POINTS', opening.points],
        ['BALANCE', opening.balance],
      ] as const) {
        if (amount)
          await postMovement(tx, { userId, account, kind: 'ADMIN_ADJUST', amount, reference: `${referencePrefix}:${userId}:${account.toLowerCase()}` })
      }
    })
  }
  const fresh = await db().user.findUniqueOrThrow({ where: { id: userId } })
  return { ...fresh, token: await issueToken(fresh.id, fresh.tokenVersion) }
}

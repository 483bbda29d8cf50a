import { encode, getToken } from 'next-auth/jwt'
import { env } from '@/lib/env'

/** Lifetime of a login token. */
export const TOKEN_MAX_AGE_SECONDS = 7 * 24 * 60 * 60

type TokenClaims = { sub: string; ver: number }

/**
 * Issues a next-auth-format token (an encrypted JWT). The token version `ver` must
 * match the user's current tokenVersion, so bumping it revokes every older token.
 */
export function issueToken(userId: string, tokenVersion: number): Promise<string> {
  return encode({ token: { sub: userId, ver: tokenVersion }, secret: env().AUTH_SECRET, maxAge: TOKEN_MAX_AGE_SECONDS })
}

/**
 * Reads the bearer token of a request. Only the Authorization header counts: the app
 * sets no cookies, so there is nothing a cross-site request could ride on.
 */
export async function readBearerToken(headers: Headers): Promise<TokenClaims | null> {
  if (!headers.get('authorization')?.startsWith('Bearer ')) return null
  const onlyTheHeader = { headers: new Headers({ authorization: headers.get('authorization')! }), cookies: {} }
  const payload = await getToken({ req: onlyTheHeader as never, secret: env().AUTH_SECRET })
  if (!payload || typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null
  return { sub: payload.sub, ver: payload.ver }
}

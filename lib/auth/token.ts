import { encode, getToken } from 'next-auth/jwt'
import { env } from '@/lib/env'

/** Lifetime of a login token. */
export const TOKEN_MAX_AGE_SECONDS = 7 * 24 * 60 * 60

/** `iat`: when the token was issued (a sign-in, or a password change), seconds since 1970. */
type TokenClaims = { sub: string; ver: number; iat?: number }

/**
 * Issues a next-auth-format token (an encrypted JWT). The token version `ver` must
 * match the user's current tokenVersion, so bumping it revokes every older token.
 */
export function issueToken(userId: string, tokenVersion: number): Promise<string> {
  return encode({ token: { sub: userId, ver: tokenVersion }, secret: env().AUTH_SECRET, maxAge: TOKEN_MAX_AGE_SECONDS })
}

// Decrypting a token derives its key and runs AES-GCM each time; a token's claims never
// change, so each process keeps the recent ones until they expire.
const MAX_DECODED = 10_000
const BEARER = /^Bearer ([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){4})$/
const decoded = new Map<string, { claims: TokenClaims; expiresAt: number }>()

/**
 * Reads the bearer token of a request. Only the Authorization header counts: the app
 * sets no cookies, so there is nothing a cross-site request could ride on.
 */
export async function readBearerToken(headers: Headers): Promise<TokenClaims | null> {
  // Exactly `Bearer <compact JWE>`: the decoder would read a token followed by anything, and the
  // cache below is keyed by the token, so trailing junk must not make each request a new entry.
  const token = BEARER.exec(headers.get('authorization') ?? '')?.[1]
  if (!token) return null
  const known = decoded.get(token)
  if (known && known.expiresAt > Date.now()) return known.claims
  const onlyTheHeader = { headers: new Headers({ authorization: `Bearer ${token}` }), cookies: {} }
  const payload = await getToken({ req: onlyTheHeader as never, secret: env().AUTH_SECRET })
  if (!payload || typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null
  const claims: TokenClaims = { sub: payload.sub, ver: payload.ver, ...(typeof payload.iat === 'number' ? { iat: payload.iat } : {}) }
  if (typeof payload.exp === 'number') {
    if (decoded.size >= MAX_DECODED) decoded.delete(decoded.keys().next().value!)
    decoded.set(token, { claims, expiresAt: payload.exp * 1000 })
  }
  return claims
}

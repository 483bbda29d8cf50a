import 'server-only'
import { db } from '@/lib/db'
import type { Role } from '@/lib/generated/prisma/enums'
import { cachedSessionRow } from './session-cache'
import { readBearerToken } from './token'

/** `signedInAt`: when this session's token was issued (a sign-in or a password change); null for an old token without it. */
export type SessionUser = { id: string; username: string; name: string; role: Role; signedInAt: Date | null }

/**
 * The user behind a request: a token whose version is stale (logout, password change,
 * ban) or whose user is gone counts as none, and a role change takes effect on the next
 * request. The row comes from the database, or from the short per-process cache that
 * every change to it empties (./session-cache.ts).
 */
export async function resolveSessionUser(headers: Headers): Promise<SessionUser | null> {
  const claims = await readBearerToken(headers)
  if (!claims) return null
  const user = await cachedSessionRow(claims.sub, () =>
    db().user.findUnique({
      where: { id: claims.sub },
      select: { id: true, username: true, name: true, role: true, tokenVersion: true, bannedAt: true },
    }),
  )
  if (!user || user.tokenVersion !== claims.ver || user.bannedAt) return null
  const signedInAt = claims.iat === undefined ? null : new Date(claims.iat * 1000)
  return { id: user.id, username: user.username, name: user.name, role: user.role, signedInAt }
}

import 'server-only'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { env } from '@/lib/env'
import type { SessionUser } from '@/lib/auth/session'
import { ensureInviteCode } from './invite-code'

export type MyInvite = {
  code: string
  link: string
  invitedCount: number
  /** Commission still counted as earned (taken-back records excluded): cents and points. */
  earnings: { balance: number; points: number }
  inviter?: { name: string; boundAt: string }
}

/** The sign-up link carrying a code: PUBLIC_URL (or the request's origin) + /login?invite=CODE. */
export function inviteLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/login?invite=${encodeURIComponent(code)}`
}

export function publicOrigin(fallback?: string): string {
  const url = env().PUBLIC_URL
  return url ? new URL(url).origin : (fallback ?? '')
}

type InviteRow = { code: string | null; invitedAt: string | null; inviterName: string | null; invitedCount: number; balance: bigint; points: bigint }

/**
 * The user's code, binding, invitee count and commission earned (SUCCESS records, per
 * account) in one plain statement: the count and sums through the "inviterId" indexes of
 * "User" and "CommissionRecord".
 */
const readInvite = async (userId: string) =>
  (
    await readRows<InviteRow[]>(
      Prisma.sql`
      SELECT u."inviteCode" AS "code", u."invitedAt", i."name" AS "inviterName",
        (SELECT count(*)::int FROM "User" WHERE "inviterId" = u."id") AS "invitedCount",
        s."balance", s."points"
      FROM "User" u
      LEFT JOIN LATERAL (SELECT "name" FROM "User" WHERE "id" = u."inviterId" LIMIT 1) i ON true
      CROSS JOIN LATERAL (
        SELECT coalesce(sum("amount") FILTER (WHERE "account" = 'BALANCE'), 0)::int8 AS "balance",
          coalesce(sum("amount") FILTER (WHERE "account" = 'POINTS'), 0)::int8 AS "points"
        FROM "CommissionRecord" WHERE "inviterId" = u."id" AND "status" = 'SUCCESS'
      ) s
      WHERE u."id" = ${userId}`,
    )
  )[0]

/** GET /api/users/my/invite: the user's code (made on first view), link, count, earnings and inviter. */
export async function getMyInvite(user: SessionUser, origin?: string): Promise<MyInvite> {
  let self = await readInvite(user.id)
  // The first view makes the code (a user who is gone fails in there, as before), then reads again.
  if (!self?.code) {
    await ensureInviteCode(user.id)
    self = await readInvite(user.id)
  }
  if (!self?.code) throw new Error('Could not make an invite code')
  const { code } = self
  return {
    code,
    link: inviteLink(publicOrigin(origin), code),
    invitedCount: self.invitedCount,
    earnings: { balance: Number(self.balance), points: Number(self.points) },
    ...(self.inviterName !== null && self.invitedAt ? { inviter: { name: self.inviterName, boundAt: self.invitedAt } } : {}),
  }
}

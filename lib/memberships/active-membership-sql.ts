import 'server-only'
import { beijingDay } from '@/lib/beijing-time'
import { isoText, jsonObjectOrNull, type JsonFields } from '@/lib/db/json-rows'
import type { Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import type { MembershipKind } from '@/lib/generated/prisma/enums'
import type { ActiveMembership } from './active-membership'

/**
 * activeMembership's rule (./active-membership.ts) for a statement that reads more than the
 * membership: the user's one row of this kind while its "expiresAt" is after `now` (the
 * app's clock, bound, as activeMembership compares it), as `LEFT JOIN LATERAL (…) alias ON true`.
 * The alias then has a row exactly when activeMembership answers one.
 */
export function activeMembershipRow(userId: Prisma.Sql, kind: MembershipKind, now: Date): Prisma.Sql {
  return Prisma.sql`SELECT * FROM "Membership" WHERE "userId" = ${userId} AND "kind" = ${kind}::"MembershipKind" AND "expiresAt" > ${now} LIMIT 1`
}

/**
 * Some fields of the membership activeMembershipRow found under `alias` (a name written in
 * the statement, never input) as a JSON object in the keys' order, expiresAt as its Date's
 * JSON text; null when there is none.
 */
export function activeMembershipJson<K extends keyof Omit<ActiveMembership, 'kind'>>(alias: string, keys: K[]): Prisma.Sql {
  const column = (key: string) => Prisma.raw(`"${alias}"."${key}"`)
  const fields = Object.fromEntries(keys.map((key) => [key, key === 'expiresAt' ? isoText(column(key)) : column(key)])) as JsonFields<
    Listed<Pick<ActiveMembership, K>>
  >
  return jsonObjectOrNull(Prisma.sql`${column('id')} IS NOT NULL`, fields)
}

/** The ledger reference of a member's daily points for the Beijing day of `now` (as grantDailyAllowance books it). */
export const membershipDailyReference = (userId: string, now: Date) => `membership-daily:${userId}:${beijingDay(now)}`

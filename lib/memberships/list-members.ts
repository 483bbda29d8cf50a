import 'server-only'
import { dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import type { MembershipKind } from '@/lib/generated/prisma/enums'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'

export type ActiveMember = {
  kind: MembershipKind
  planName: string
  expiresAt: string
  dailyPoints: number
  discountPercent: number
  dailyMessages: number | null
  user: { id: string; name: string; username: string }
}

/**
 * /admin/subscription_mana: the members whose plan of this kind still runs, soonest to end
 * first, and how many there are, in one statement (as listMyTasks): the total and the page
 * cut on the ("kind", "expiresAt") index before each row's user is looked up by key, each
 * row written as JSON. An empty page is one row: the total.
 */
export async function listActiveMembers(kind: MembershipKind, query: TPageQuery, now = new Date()): Promise<Page<ActiveMember>> {
  const active = Prisma.sql`"kind" = ${kind}::"MembershipKind" AND "expiresAt" > ${now}`
  const { skip, take } = pageArgs(query)
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT k."total", ${memberRowJson} AS "row"
    FROM (SELECT count(*)::int AS "total" FROM "Membership" WHERE ${active}) k
    LEFT JOIN LATERAL (SELECT * FROM "Membership" WHERE ${active} ORDER BY "expiresAt" ASC, "id" ASC LIMIT ${pageLimit(take)} OFFSET ${skip}) m ON true
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = m."userId" LIMIT 1) u ON true
    ORDER BY m."expiresAt" ASC, m."id" ASC`,
    dbPool('generic'),
  )
  return jsonPage<ActiveMember>(rows)
}

/** Key by key in the order of the Prisma select it replaces. */
const memberRowJson = jsonRowText<ActiveMember>(Prisma.sql`m."id" IS NOT NULL`, {
  kind: Prisma.sql`m."kind"`,
  planName: Prisma.sql`m."planName"`,
  expiresAt: isoText(Prisma.sql`m."expiresAt"`),
  dailyPoints: Prisma.sql`m."dailyPoints"`,
  discountPercent: Prisma.sql`m."discountPercent"`,
  dailyMessages: Prisma.sql`m."dailyMessages"`,
  user: jsonObject({ id: Prisma.sql`u."id"`, name: Prisma.sql`u."name"`, username: Prisma.sql`u."username"` }),
})

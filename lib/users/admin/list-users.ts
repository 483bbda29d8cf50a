import 'server-only'
import { dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Role } from '@/lib/generated/prisma/enums'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import type { AdminUserRow } from '../user-views'

/** The console's user list: newest first, searchable by username, name or mobile. */
export async function listUsers(query: TPageQuery & { keyword?: string; role?: Role }): Promise<Page<Listed<AdminUserRow>>> {
  const keyword = query.keyword?.trim() ? `%${escapeLike(query.keyword.trim())}%` : undefined
  const conditions = [
    query.role ? Prisma.sql`"role" = ${query.role}::"Role"` : null,
    keyword ? Prisma.sql`("username" ILIKE ${keyword} OR "name" ILIKE ${keyword} OR "mobile" LIKE ${keyword})` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  // The exact total: without a search, the counters the triggers on "User" keep in step with
  // every write (migration other_list_counts, at most 3 rows summed); a search counts its matches.
  const total = keyword
    ? Prisma.sql`SELECT count(*)::int AS "total" FROM "User" ${where}`
    : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "UserCount" ${query.role ? Prisma.sql`WHERE "role" = ${query.role}::"Role"` : Prisma.empty}`
  const { skip, take } = pageArgs(query)
  // One statement: the total, and the page cut on the (role,) createdAt, id index. An empty page is one row of the total.
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT t."total", ${userRowJson} AS "row"
    FROM (${total}) t
    LEFT JOIN LATERAL (SELECT * FROM "User" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) u ON true
    ORDER BY u."createdAt" DESC, u."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<AdminUserRow>>(rows)
}

/** Key by key in the order toAdminUserRow (../user-views.ts) gives them. */
const userRowJson = jsonRowText<Listed<AdminUserRow>>(Prisma.sql`u."id" IS NOT NULL`, {
  id: Prisma.sql`u."id"`,
  username: Prisma.sql`u."username"`,
  name: Prisma.sql`u."name"`,
  avatar: Prisma.sql`u."avatar"`,
  mobile: Prisma.sql`u."mobile"`,
  role: Prisma.sql`u."role"`,
  points: Prisma.sql`u."points"`,
  balance: Prisma.sql`u."balance"`,
  createdAt: isoText(Prisma.sql`u."createdAt"`),
  oauth: jsonObject({ hasOpenId: Prisma.sql`coalesce(u."wxOpenId", '') <> ''` }),
  bannedAt: isoText(Prisma.sql`u."bannedAt"`),
  updatedAt: isoText(Prisma.sql`u."updatedAt"`),
  agreedTermsAt: isoText(Prisma.sql`u."agreedTermsAt"`),
})

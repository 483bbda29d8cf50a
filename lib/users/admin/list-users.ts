import 'server-only'
import { dbPool } from '@/lib/db'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Role } from '@/lib/generated/prisma/enums'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import type { AdminUserRow, toAdminUserRow } from '../user-views'

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
  const rows = await readRows<PageRow[]>(
    Prisma.sql`
    SELECT t."total", u."id", u."username", u."name", u."avatar", u."mobile", u."role", u."points", u."balance", u."wxOpenId", u."createdAt",
           u."bannedAt", u."updatedAt", u."agreedTermsAt"
    FROM (${total}) t
    LEFT JOIN LATERAL (SELECT * FROM "User" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) u ON true
    ORDER BY u."createdAt" DESC, u."id" DESC`,
    dbPool('generic'),
  )
  return { list: rows.filter((r) => r.id !== null).map(toRow), total: rows[0]?.total ?? 0 }
}

type PageRow = Listed<Parameters<typeof toAdminUserRow>[0]> & { total: number }

/** Key by key in the order toAdminUserRow gives them (one literal per row: see lib/tasks/task-page-row.ts). */
function toRow(u: PageRow): Listed<AdminUserRow> {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    avatar: u.avatar,
    mobile: u.mobile,
    role: u.role,
    points: u.points,
    balance: u.balance,
    createdAt: u.createdAt,
    oauth: { hasOpenId: Boolean(u.wxOpenId) },
    bannedAt: u.bannedAt,
    updatedAt: u.updatedAt,
    agreedTermsAt: u.agreedTermsAt,
  }
}

import 'server-only'
import { dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import type { AdminTaskFilter, AdminTaskRow } from './admin-task-views'

/** GET /api/admin/tasks: every task, newest first, filtered by type, status, user and date. */
export async function listTasksForAdmin(query: TPageQuery & AdminTaskFilter): Promise<Page<Listed<AdminTaskRow>>> {
  const user = query.user?.trim()
  const like = user ? `%${escapeLike(user)}%` : ''
  const kept = [query.type ? Prisma.sql`"type" = ${query.type}::"TaskType"` : null, query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null]
  const conditions = [
    ...kept,
    // The user's tasks through the ("userId", "createdAt") index, for every user the text names.
    user ? Prisma.sql`"userId" = ANY (ARRAY(SELECT "id" FROM "User" WHERE "username" ILIKE ${like} OR "name" ILIKE ${like} OR "id" = ${user}))` : null,
    query.from ? Prisma.sql`"createdAt" >= ${query.from}` : null,
    query.to ? Prisma.sql`"createdAt" < ${query.to}` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  const counted = kept.filter((c) => c !== null)
  // The exact total: by type and status alone, the counters the triggers on "Task" keep in step
  // with every write (migration other_list_counts); a user or a date range counts its matches.
  const total =
    user || query.from || query.to
      ? Prisma.sql`SELECT count(*)::int AS "total" FROM "Task" ${where}`
      : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "TaskStatusCount" ${counted.length ? Prisma.sql`WHERE ${Prisma.join(counted, ' AND ')}` : Prisma.empty}`
  const { skip, take } = pageArgs(query)
  // One statement: the total, and the page cut on the (status,) createdAt, id index before its
  // model and owner are looked up. An empty page is one row of the total.
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT c."total", ${taskRowJson} AS "row"
    FROM (${total}) c
    LEFT JOIN LATERAL (
      SELECT "id", "userId", "modelId", "type", "status", "stage", "progress", "chargedPoints", "errorMessage", "results", "videos", "isRecommended",
             "refundedAt", "createdAt"
      FROM "Task" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) t ON true
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "AiModel" WHERE "id" = t."modelId" LIMIT 1) m ON true
    LEFT JOIN LATERAL (SELECT "id", "username", "name" FROM "User" WHERE "id" = t."userId" LIMIT 1) u ON true
    ORDER BY t."createdAt" DESC, t."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<AdminTaskRow>>(rows)
}

/** Key by key in the order of the task's view (./task-views.ts), then its owner. */
const taskRowJson = jsonRowText<Listed<AdminTaskRow>>(Prisma.sql`t."id" IS NOT NULL`, {
  id: Prisma.sql`t."id"`,
  type: Prisma.sql`t."type"`,
  status: Prisma.sql`t."status"`,
  stage: Prisma.sql`t."stage"`,
  progress: Prisma.sql`t."progress"`,
  chargedPoints: Prisma.sql`t."chargedPoints"`,
  errorMessage: Prisma.sql`t."errorMessage"`,
  results: Prisma.sql`coalesce(t."results", '[]')`,
  videos: Prisma.sql`coalesce(t."videos", '[]')`,
  isRecommended: Prisma.sql`t."isRecommended"`,
  refundedAt: isoText(Prisma.sql`t."refundedAt"`),
  createdAt: isoText(Prisma.sql`t."createdAt"`),
  model: jsonObject({ id: Prisma.sql`m."id"`, name: Prisma.sql`m."name"` }),
  user: jsonObject({ id: Prisma.sql`u."id"`, username: Prisma.sql`u."username"`, name: Prisma.sql`u."name"` }),
})

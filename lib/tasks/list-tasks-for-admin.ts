import 'server-only'
import { dbPool } from '@/lib/db'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import type { AdminTaskFilter, AdminTaskRow } from './admin-task-views'
import { TASK_PAGE_COLUMNS, taskViewOfRow, type TaskPageRow } from './task-page-row'

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
  // One statement: the total, and the page cut on the (status,) createdAt, id index before the
  // joins to its model, wall entry and owner. An empty page is one row of the total.
  const rows = await readRows<PageRow[]>(
    Prisma.sql`
    SELECT c."total", ${TASK_PAGE_COLUMNS},
           u."id" AS "userId", u."username" AS "userUsername", u."name" AS "userName"
    FROM (${total}) c
    LEFT JOIN LATERAL (
      SELECT "id", "userId", "modelId", "type", "status", "stage", "progress", "params", "chargedPoints", "errorMessage", "results", "videos", "parentId",
             "action", "buttons", "previewUrl", "isRecommended", "refundedAt", "createdAt", "startedAt", "finishedAt"
      FROM "Task" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) t ON true
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "AiModel" WHERE "id" = t."modelId" LIMIT 1) m ON true
    LEFT JOIN LATERAL (SELECT "id", "status", "featured" FROM "WallWork" WHERE "taskId" = t."id" LIMIT 1) w ON true
    LEFT JOIN LATERAL (SELECT "id", "username", "name" FROM "User" WHERE "id" = t."userId" LIMIT 1) u ON true
    ORDER BY t."createdAt" DESC, t."id" DESC`,
    dbPool('generic'),
  )
  return { list: rows.filter((r) => r.id !== null).map(toRow), total: rows[0]?.total ?? 0 }
}

type PageRow = TaskPageRow & { total: number; userId: string; userUsername: string; userName: string }

function toRow(row: PageRow): Listed<AdminTaskRow> {
  return Object.assign(taskViewOfRow(row), { user: { id: row.userId, username: row.userUsername, name: row.userName } })
}

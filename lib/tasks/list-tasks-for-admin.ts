import 'server-only'
import { dbPool } from '@/lib/db'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
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
  const rows = await readRows<PageRow[]>(
    Prisma.sql`
    SELECT c."total", t."id", t."type", t."status", t."stage", t."progress", t."chargedPoints", t."errorMessage", t."results", t."videos",
           t."isRecommended", t."refundedAt", t."createdAt", m."id" AS "modelId", m."name" AS "modelName",
           u."id" AS "userId", u."username" AS "userUsername", u."name" AS "userName"
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
  return { list: rows.filter((r) => r.id !== null).map(toRow), total: rows[0]?.total ?? 0 }
}

type PageRow = Omit<Listed<AdminTaskRow>, 'model' | 'user' | 'results' | 'videos'> & {
  total: number
  results: unknown
  videos: unknown
  modelId: string
  modelName: string
  userId: string
  userUsername: string
  userName: string
}

/** Key by key in the order of the statement's columns (one literal per row: see ./task-page-row.ts). */
function toRow(t: PageRow): Listed<AdminTaskRow> {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    stage: t.stage,
    progress: t.progress,
    chargedPoints: t.chargedPoints,
    errorMessage: t.errorMessage,
    results: (t.results ?? []) as AdminTaskRow['results'],
    videos: (t.videos ?? []) as AdminTaskRow['videos'],
    isRecommended: t.isRecommended,
    refundedAt: t.refundedAt,
    createdAt: t.createdAt,
    model: { id: t.modelId, name: t.modelName },
    user: { id: t.userId, username: t.userUsername, name: t.userName },
  }
}

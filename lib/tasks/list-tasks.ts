import 'server-only'
import { dbPool } from '@/lib/db'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { jsonPage, JsonText, type JsonPageRow } from '@/lib/http/json-list'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Status, TaskType } from '@/lib/generated/prisma/enums'
import { notFound } from '@/lib/http/app-error'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { getConfigValue } from '@/lib/site-config/store'
import { TASK_ROW_JSON } from './task-page-row'
import type { TaskView } from './task-views'

/**
 * The caller's own tasks, newest first, and how many there are, in one statement. The
 * total and the page's ids are read from the index on ("userId", "createdAt", "id",
 * "status", "type", "deletedAt") alone, every filter being in it (an index-only scan on a
 * vacuumed table), so they cost the caller's own tasks, never the table's; then only the
 * page's rows are read, with their model and wall work. An empty page is one row: the total.
 * Not a counter kept by triggers: see docs/RELIABILITY.md (speed) for why.
 */
export async function listMyTasks(userId: string, query: TPageQuery & { status?: Status; type?: TaskType }): Promise<Page<Listed<TaskView>>> {
  const conditions = [
    Prisma.sql`"userId" = ${userId}`,
    Prisma.sql`"deletedAt" IS NULL`,
    query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null,
    query.type ? Prisma.sql`"type" = ${query.type}::"TaskType"` : null,
  ].filter((c) => c !== null)
  const mine = Prisma.join(conditions, ' AND ')
  const { skip, take } = pageArgs(query)
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT k."total", ${TASK_ROW_JSON} AS "row"
    FROM (SELECT count(*)::int AS "total" FROM "Task" WHERE ${mine}) k
    LEFT JOIN LATERAL (SELECT "id" FROM "Task" WHERE ${mine} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) p ON true
    LEFT JOIN LATERAL (SELECT * FROM "Task" WHERE "id" = p."id" LIMIT 1) t ON true
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "AiModel" WHERE "id" = t."modelId" LIMIT 1) m ON true
    LEFT JOIN LATERAL (SELECT "id", "status", "featured" FROM "WallWork" WHERE "taskId" = t."id" LIMIT 1) w ON true
    ORDER BY t."createdAt" DESC, t."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<TaskView>>(rows)
}

/** A task as its page polls it: where it stands in the queue, and why it waits when something holds it up. */
export type MyTaskView = Listed<TaskView> & { queuePosition: number | null; waitingNote: string | null }

type MyTaskRow = {
  row: string
  modelName: string
  /** The rest only for a queued task (null otherwise): its place and what its note needs. */
  ahead: number | null
  inRouting: boolean | null
  runAfter: string | null
  attempts: number | null
  maxAttempts: number | null
  backendLog: unknown
}

/**
 * One of the caller's tasks; another user's task is "not found", never "forbidden". Pages
 * poll it, so it is one statement: the task's view as the list writes it (TASK_ROW_JSON),
 * and for a queued task only, behind a CASE, how many tasks of its model are ahead and
 * whether anything in routing can run it; a finished task costs no more than its row. On
 * its generic plan, whatever PostgreSQL would estimate: planned anew for each call, it took
 * four times as long to plan as to run, and every value gets the same plan (the task by key,
 * the rest by the task's own columns). The answer is the view's JSON text with the two keys
 * after its own, never parsed on its way to the response.
 */
export async function getMyTask(userId: string, taskId: string): Promise<JsonText<MyTaskView>> {
  const queued = Prisma.sql`t."status" = 'PENDING' AND t."stage" = 'QUEUED'`
  const [found] = await readRows<MyTaskRow[]>(
    Prisma.sql`
    SELECT ${TASK_ROW_JSON} AS "row", m."name" AS "modelName",
      CASE WHEN ${queued} THEN (SELECT count(*)::int FROM "Task" a
        WHERE a."modelId" = t."modelId" AND a."status" = 'PENDING' AND a."stage" = 'QUEUED' AND a."createdAt" < t."createdAt") END AS "ahead",
      CASE WHEN ${queued} THEN
        CASE WHEN t."poolKey" <> '' THEN EXISTS (SELECT 1 FROM "AiModel" r WHERE r."pool" = t."poolKey" AND r."enabled" AND r."healthy")
        ELSE EXISTS (SELECT 1 FROM "AiModel" r WHERE r."id" = t."modelId" AND r."healthy" AND (r."enabled" OR r."pool" IS NULL)) END
      END AS "inRouting",
      CASE WHEN ${queued} THEN t."runAfter" END AS "runAfter",
      CASE WHEN ${queued} THEN t."attempts" END AS "attempts",
      CASE WHEN ${queued} THEN t."maxAttempts" END AS "maxAttempts",
      CASE WHEN ${queued} THEN t."backendLog" END AS "backendLog"
    FROM (SELECT * FROM "Task" WHERE "id" = ${taskId} AND "userId" = ${userId} AND "deletedAt" IS NULL) t
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "AiModel" WHERE "id" = t."modelId" LIMIT 1) m ON true
    LEFT JOIN LATERAL (SELECT "id", "status", "featured" FROM "WallWork" WHERE "taskId" = t."id" LIMIT 1) w ON true`,
    dbPool('generic'),
  )
  if (!found) throw notFound('任务不存在')
  // The view's keys, then MyTaskView's two: `{…,"queuePosition":…,"waitingNote":…}`.
  const view = found.row.slice(0, -1)
  if (found.ahead === null) return new JsonText(`${view},"queuePosition":null,"waitingNote":null}`)
  const waitingNote = await waitingNoteOf({
    modelName: found.modelName,
    inRouting: found.inRouting === true,
    runAfter: new Date(found.runAfter!),
    attempts: found.attempts!,
    maxAttempts: found.maxAttempts!,
    backendLog: found.backendLog,
  })
  return new JsonText(`${view},"queuePosition":${found.ahead + 1},"waitingNote":${JSON.stringify(waitingNote)}}`)
}

/** Why a queued task is not running yet, in words for its owner (null: it simply waits its turn). */
async function waitingNoteOf(task: {
  modelName: string
  inRouting: boolean
  runAfter: Date
  attempts: number
  maxAttempts: number
  backendLog: unknown
}): Promise<string | null> {
  if (!task.inRouting) {
    const minutes = Math.max(1, Math.round((await getConfigValue<number>('BACKEND_OUTAGE_REFUND_SECONDS')) / 60))
    return `模型「${task.modelName}」暂时不可用，恢复后自动开始；约 ${minutes} 分钟内仍未恢复将取消任务并退还积分`
  }
  const last = Array.isArray(task.backendLog) ? (task.backendLog[0] as { error?: unknown } | null) : null
  if (!last?.error || task.runAfter.getTime() <= Date.now()) return null
  if (last.error === 'BUSY') return '生成服务繁忙，稍后自动重试'
  return `上一次尝试失败，稍后自动重试（已尝试 ${task.attempts}/${task.maxAttempts} 次）`
}

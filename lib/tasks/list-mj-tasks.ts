import 'server-only'
import { dbPool } from '@/lib/db'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { jsonList, type JsonList } from '@/lib/http/json-list'
import { pageArgs, type TPageQuery } from '@/lib/http/pagination'
import { TASK_ROW_JSON } from './task-page-row'
import type { TaskView } from './task-views'

export type MjTaskNode = Listed<TaskView> & { children: MjTaskNode[] }

/** A row of the statement: a task of the page (a root, or one its buttons made), or the empty page's total alone. */
type TreeRow = { total: number; id: string | null; parentId: string | null; root: boolean | null; row: string | null }

/**
 * The caller's Midjourney work as trees: a page of first tasks (newest first), each with every
 * task its buttons made, children oldest first. One statement: the total, the page of roots,
 * their descendants (recursively, by "parentId"), each task written as JSON as the task list
 * writes it; the trees are then put together from those texts, never parsed. An empty page
 * is one row: the total. The roots, and their count, come in order from a partial index of
 * first Midjourney tasks (`Task_mj_roots_idx`), not from all of the user's tasks. Each task's
 * children are looked up by "parentId" (`OFFSET 0` keeps the lateral from being flattened
 * into a join a generic plan might run over all the user's tasks). A task its owner deleted
 * leaves the trees with the tasks made from it (they stay in 我的作品).
 */
export async function listMjTaskTrees(userId: string, query: TPageQuery): Promise<JsonList<MjTaskNode> & { total: number }> {
  const roots = Prisma.sql`"userId" = ${userId} AND "type" IN ('MJ_TEXT2IMG', 'MJ_IMG2IMG') AND "parentId" IS NULL AND "deletedAt" IS NULL`
  const { skip, take } = pageArgs(query)
  const rows = await readRows<TreeRow[]>(
    Prisma.sql`
    WITH RECURSIVE
      p AS (SELECT "id" FROM "Task" WHERE ${roots} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}),
      tree AS (
        SELECT c."id" FROM p, LATERAL (SELECT "id" FROM "Task" WHERE "parentId" = p."id" AND "userId" = ${userId} AND "deletedAt" IS NULL OFFSET 0) c
        UNION
        SELECT c."id" FROM tree, LATERAL (SELECT "id" FROM "Task" WHERE "parentId" = tree."id" AND "userId" = ${userId} AND "deletedAt" IS NULL OFFSET 0) c
      )
    SELECT k."total", t."id", t."parentId", n."root", ${TASK_ROW_JSON} AS "row"
    FROM (SELECT count(*)::int AS "total" FROM "Task" WHERE ${roots}) k
    LEFT JOIN LATERAL (SELECT "id", true AS "root" FROM p UNION ALL SELECT "id", false FROM tree) n ON true
    LEFT JOIN LATERAL (SELECT * FROM "Task" WHERE "id" = n."id" LIMIT 1) t ON true
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "AiModel" WHERE "id" = t."modelId" LIMIT 1) m ON true
    LEFT JOIN LATERAL (SELECT "id", "status", "featured" FROM "WallWork" WHERE "taskId" = t."id" LIMIT 1) w ON true
    ORDER BY n."root" DESC, CASE WHEN n."root" THEN t."createdAt" END DESC, CASE WHEN n."root" THEN t."id" END DESC, t."createdAt", t."id"`,
    dbPool('generic'),
  )
  const children = new Map<string, string[]>()
  for (const r of rows) {
    if (r.root !== false) continue
    const siblings = children.get(r.parentId!)
    if (siblings) siblings.push(r.id!)
    else children.set(r.parentId!, [r.id!])
  }
  const texts = new Map(rows.flatMap((r) => (r.id ? [[r.id, r.row!] as const] : [])))
  // A task's JSON with its children's after its own keys: `{…,"children":[…]}`.
  const nodeText = (id: string): string => `${texts.get(id)!.slice(0, -1)},"children":[${(children.get(id) ?? []).map(nodeText).join(',')}]}`
  return jsonList<MjTaskNode>(
    rows.flatMap((r) => (r.root ? [nodeText(r.id!)] : [])),
    { total: rows[0]?.total ?? 0 },
  )
}

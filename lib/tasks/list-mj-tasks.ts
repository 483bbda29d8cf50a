import 'server-only'
import { db } from '@/lib/db'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { TASK_VIEW_SELECT, toTaskView, type TaskView } from './task-views'

export type MjTaskNode = TaskView & { children: MjTaskNode[] }

const MJ_TYPES = ['MJ_TEXT2IMG', 'MJ_IMG2IMG'] as const

/** The caller's Midjourney work as trees: a page of first tasks (newest first), each with every task its buttons made. */
export async function listMjTaskTrees(userId: string, query: TPageQuery): Promise<Page<MjTaskNode>> {
  const where = { userId, type: { in: [...MJ_TYPES] }, parentId: null }
  const [roots, total] = await Promise.all([
    db().task.findMany({ where, select: TASK_VIEW_SELECT, orderBy: { createdAt: 'desc' }, ...pageArgs(query) }),
    db().task.count({ where }),
  ])
  if (roots.length === 0) return { list: [], total }
  const descendants = await db().$queryRaw<{ id: string }[]>`
    WITH RECURSIVE tree AS (
      SELECT t."id" FROM "Task" t WHERE t."parentId" = ANY(${roots.map((r) => r.id)}) AND t."userId" = ${userId}
      UNION
      SELECT c."id" FROM "Task" c JOIN tree ON c."parentId" = tree."id" WHERE c."userId" = ${userId}
    )
    SELECT "id" FROM tree`
  const rows = descendants.length
    ? await db().task.findMany({ where: { id: { in: descendants.map((d) => d.id) } }, select: TASK_VIEW_SELECT, orderBy: { createdAt: 'asc' } })
    : []
  const nodes = new Map<string, MjTaskNode>()
  for (const row of [...roots, ...rows]) nodes.set(row.id, { ...toTaskView(row), children: [] })
  for (const row of rows) nodes.get(row.parentId!)?.children.push(nodes.get(row.id)!)
  return { list: roots.map((r) => nodes.get(r.id)!), total }
}

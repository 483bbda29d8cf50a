import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { Status, TaskType } from '@/lib/generated/prisma/enums'
import { notFound } from '@/lib/http/app-error'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { TASK_VIEW_SELECT, toTaskView, type TaskView } from './task-views'

/** The caller's own tasks, newest first. */
export async function listMyTasks(userId: string, query: TPageQuery & { status?: Status; type?: TaskType }): Promise<Page<TaskView>> {
  const where: Prisma.TaskWhereInput = { userId, ...(query.status ? { status: query.status } : {}), ...(query.type ? { type: query.type } : {}) }
  const [rows, total] = await Promise.all([
    db().task.findMany({ where, select: TASK_VIEW_SELECT, orderBy: { createdAt: 'desc' }, ...pageArgs(query) }),
    db().task.count({ where }),
  ])
  return { list: rows.map(toTaskView), total }
}

/** One of the caller's tasks; another user's task is "not found", never "forbidden". */
export async function getMyTask(userId: string, taskId: string): Promise<TaskView & { queuePosition: number | null }> {
  const row = await db().task.findFirst({ where: { id: taskId, userId }, select: { ...TASK_VIEW_SELECT, modelId: true } })
  if (!row) throw notFound('任务不存在')
  const queuePosition =
    row.status === 'PENDING' && row.stage === 'QUEUED'
      ? (await db().task.count({ where: { modelId: row.modelId, status: 'PENDING', stage: 'QUEUED', createdAt: { lt: row.createdAt } } })) + 1
      : null
  const { modelId: _, ...view } = row
  return { ...toTaskView(view), queuePosition }
}

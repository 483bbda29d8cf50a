import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { Status, TaskType } from '@/lib/generated/prisma/enums'
import { escapeLike } from '@/lib/db/like'
import { conflict, notFound } from '@/lib/http/app-error'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { TASK_VIEW_SELECT, toTaskView, type TaskView } from './task-views'

export type AdminTaskRow = TaskView & { user: { id: string; username: string; name: string } }
export type AdminTaskFilter = { type?: TaskType; status?: Status; user?: string; from?: Date; to?: Date }

const ADMIN_TASK_SELECT = { ...TASK_VIEW_SELECT, user: { select: { id: true, username: true, name: true } } } as const

/** GET /api/admin/tasks: every task, newest first, filtered by type, status, user and date. */
export async function listTasksForAdmin(query: TPageQuery & AdminTaskFilter): Promise<Page<AdminTaskRow>> {
  const user = query.user?.trim()
  const where: Prisma.TaskWhereInput = {
    ...(query.type ? { type: query.type } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(user ? { user: { OR: [{ username: { contains: escapeLike(user), mode: 'insensitive' } }, { name: { contains: escapeLike(user), mode: 'insensitive' } }, { id: user }] } } : {}),
    ...(query.from || query.to ? { createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) } } : {}),
  }
  const [rows, total] = await Promise.all([
    db().task.findMany({ where, select: ADMIN_TASK_SELECT, orderBy: { createdAt: 'desc' }, ...pageArgs(query) }),
    db().task.count({ where }),
  ])
  return { list: rows.map((r) => ({ ...toTaskView(r), user: r.user })), total }
}

/** Everything about one task for the console: parameters, backend answers, errors and its ledger rows. */
export async function getTaskForAdmin(id: string) {
  const task = await db().task.findUnique({
    where: { id },
    select: { ...ADMIN_TASK_SELECT, upstreamId: true, attempts: true, maxAttempts: true, errorCode: true, backendLog: true, priceSnapshot: true, deadlineAt: true, leaseOwner: true },
  })
  if (!task) throw notFound('任务不存在')
  const ledger = await db().ledgerEntry.findMany({
    where: { reference: { in: [`task:${id}:charge`, `task:${id}:refund`, `task:${id}:shortfall`] } },
    select: { id: true, kind: true, amount: true, balanceAfter: true, reference: true, createdAt: true },
    orderBy: { id: 'asc' },
  })
  return { ...toTaskView(task), user: task.user, upstreamId: task.upstreamId, attempts: task.attempts, maxAttempts: task.maxAttempts, errorCode: task.errorCode, backendLog: task.backendLog, priceSnapshot: task.priceSnapshot, deadlineAt: task.deadlineAt, leaseOwner: task.leaseOwner, ledger }
}

/** Recommends a finished task to the image wall, or takes it off (audited). */
export async function setRecommended(actor: SessionUser, ip: string, id: string, isRecommended: boolean): Promise<{ id: string; isRecommended: boolean }> {
  return db().$transaction(async (tx) => {
    const task = await tx.task.findUnique({ where: { id }, select: { status: true } })
    if (!task) throw notFound('任务不存在')
    if (isRecommended && task.status !== 'SUCCESS') throw conflict('只有生成成功的作品可以推荐')
    await tx.task.update({ where: { id }, data: { isRecommended } })
    await recordAudit(tx, actor, ip, { action: isRecommended ? 'task.recommend' : 'task.unrecommend', targetType: 'Task', targetId: id })
    return { id, isRecommended }
  })
}

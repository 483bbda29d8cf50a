import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, notFound } from '@/lib/http/app-error'
import { announceTaskCanceled } from '@/lib/signals/task-cancel'
import { cancelPendingTask } from './finish-task'
import { TASK_ERROR_MESSAGES, TASK_VIEW_SELECT, toTaskView, type TaskView } from './task-views'

async function cancel(taskId: string, by: { userId?: string; code?: string; reason: string }): Promise<void> {
  const ended = await cancelPendingTask(taskId, by)
  if (!ended) {
    const exists = await db().task.count({ where: { id: taskId, ...(by.userId ? { userId: by.userId } : {}) } })
    throw exists ? conflict('任务已结束，无法取消') : notFound('任务不存在')
  }
  // A queued task simply never starts; a running one is interrupted on its backend.
  if (ended.stage !== 'QUEUED') await announceTaskCanceled(taskId)
}

/** The owner cancels a queued or running task: full refund, best-effort interrupt. */
export async function cancelTask(userId: string, taskId: string): Promise<TaskView> {
  await cancel(taskId, { userId, reason: '已取消，积分已退还' })
  return toTaskView(await db().task.findUniqueOrThrow({ where: { id: taskId }, select: TASK_VIEW_SELECT }))
}

/** An admin cancels any pending task, with a refund (audited). */
export async function cancelTaskByAdmin(actor: SessionUser, ip: string, taskId: string): Promise<TaskView> {
  await cancel(taskId, { code: 'CANCELED_BY_ADMIN', reason: TASK_ERROR_MESSAGES.CANCELED_BY_ADMIN })
  await db().$transaction((tx) => recordAudit(tx, actor, ip, { action: 'task.cancel', targetType: 'Task', targetId: taskId }))
  return toTaskView(await db().task.findUniqueOrThrow({ where: { id: taskId }, select: TASK_VIEW_SELECT }))
}

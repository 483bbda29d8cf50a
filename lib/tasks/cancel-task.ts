import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, notFound } from '@/lib/http/app-error'
import { announceTaskCanceled } from '@/lib/signals/task-cancel'
import { cancelPendingTask, type Ended } from './finish-task'
import { interruptUnfollowed } from './interrupt-unfollowed'
import { TASK_ERROR_MESSAGES, TASK_VIEW_SELECT, toTaskView, type TaskView } from './task-views'

/** After a cancel: 409 or 404 when it ended nothing, else the task (interrupted on its backend if it was running). */
async function afterCancel(taskId: string, ended: Ended | null, userId?: string): Promise<TaskView> {
  if (!ended) {
    const exists = await db().task.count({ where: { id: taskId, ...(userId ? { userId } : {}) } })
    throw exists ? conflict('任务已结束，无法取消') : notFound('任务不存在')
  }
  // A queued task simply never starts; a running one is interrupted on its backend, by its
  // worker, or here when no worker was following it.
  if (ended.stage !== 'QUEUED') await announceTaskCanceled(taskId)
  void interruptUnfollowed(ended) // best effort, after the answer: a backend may take seconds to answer
  return toTaskView(await db().task.findUniqueOrThrow({ where: { id: taskId }, select: TASK_VIEW_SELECT }))
}

/** The owner cancels a queued or running task: full refund, best-effort interrupt. */
export async function cancelTask(userId: string, taskId: string): Promise<TaskView> {
  return afterCancel(taskId, await cancelPendingTask(taskId, { userId, reason: '已取消，积分已退还' }), userId)
}

/**
 * An admin cancels any pending task, with a refund. Its audit record is written in the
 * transaction that ends the task, so the refund never stands unaudited (an admin's retry
 * would only get 409).
 */
export async function cancelTaskByAdmin(actor: SessionUser, ip: string, taskId: string): Promise<TaskView> {
  const ended = await cancelPendingTask(taskId, { code: 'CANCELED_BY_ADMIN', reason: TASK_ERROR_MESSAGES.CANCELED_BY_ADMIN }, (tx) =>
    recordAudit(tx, actor, ip, { action: 'task.cancel', targetType: 'Task', targetId: taskId }),
  )
  return afterCancel(taskId, ended)
}

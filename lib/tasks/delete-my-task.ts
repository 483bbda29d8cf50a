import 'server-only'
import { db } from '@/lib/db'
import { afterWriting } from '@/lib/signals/answer-cache'
import { conflict, notFound } from '@/lib/http/app-error'
import { lockTask } from '@/lib/db/lock-task'

/**
 * The owner deletes a finished task from their history: it leaves their lists and the
 * wall (its wall work goes); the row stays for the ledger and the console.
 */
export async function deleteMyTask(userId: string, taskId: string): Promise<{ id: string }> {
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      await lockTask(tx, taskId)
      const task = await tx.task.findFirst({ where: { id: taskId, userId, deletedAt: null }, select: { status: true } })
      if (!task) throw notFound('任务不存在')
      if (task.status === 'PENDING') throw conflict('任务进行中，请先取消再删除')
      await tx.wallWork.deleteMany({ where: { taskId } })
      await tx.task.update({ where: { id: taskId }, data: { deletedAt: new Date(), isRecommended: false } })
      return { id: taskId }
    }),
  )
}

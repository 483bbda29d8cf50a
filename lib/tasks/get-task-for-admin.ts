import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import { ADMIN_TASK_SELECT } from './admin-task-views'
import { toTaskView } from './task-views'

/** Everything about one task for the console: parameters, backend answers, errors and its ledger rows. */
export async function getTaskForAdmin(id: string) {
  const task = await db().task.findUnique({
    where: { id },
    select: {
      ...ADMIN_TASK_SELECT,
      upstreamId: true,
      attempts: true,
      maxAttempts: true,
      errorCode: true,
      backendLog: true,
      priceSnapshot: true,
      deadlineAt: true,
      leaseOwner: true,
    },
  })
  if (!task) throw notFound('任务不存在')
  const ledger = await db().ledgerEntry.findMany({
    where: { reference: { in: [`task:${id}:charge`, `task:${id}:refund`, `task:${id}:shortfall`] } },
    select: { id: true, kind: true, amount: true, balanceAfter: true, reference: true, createdAt: true },
    orderBy: { id: 'asc' },
  })
  return {
    ...toTaskView(task),
    user: task.user,
    upstreamId: task.upstreamId,
    attempts: task.attempts,
    maxAttempts: task.maxAttempts,
    errorCode: task.errorCode,
    backendLog: task.backendLog,
    priceSnapshot: task.priceSnapshot,
    deadlineAt: task.deadlineAt,
    leaseOwner: task.leaseOwner,
    ledger,
  }
}

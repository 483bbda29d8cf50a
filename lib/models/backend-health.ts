import { db } from '@/lib/db'
import { createAdapter, isSupportedBackend } from '@/lib/generation/backends/registry'
import { backendConfig } from '@/lib/tasks/build-job'
import { announceQueueChangeNow } from '@/lib/tasks/queue-signal'
import { taskFailureCooldownMs } from './backend-attempts'

export const CHECK_BACKENDS_JOB = 'check-backends'
/** A backend taken out by a failed task gets at least this long before a check may bring it back (longer after repeated failures: backend-attempts.ts). */
export const COOLDOWN_MS = 60_000
/** Marks a health message that came from a failed task (the cooldown applies to those). */
const TASK_FAILURE = '任务失败：'
/** Consecutive failed checks that take a backend out. */
const FAILED_CHECKS_TO_REMOVE = 2
const CHECK_TIMEOUT_MS = 10_000

/** How one attempt of a task on one instance ended (the console's per-instance error rate). */
export async function recordAttempt(modelId: string, taskId: string, ok: boolean, error?: string): Promise<void> {
  await db().backendAttempt.create({ data: { modelId, taskId, ok, error: error?.slice(0, 300) ?? null } })
}

/**
 * A task's submit failed in a way that speaks of the backend (unreachable, 5xx, garbage):
 * take it out at once, so the retry goes to another instance of its pool.
 */
export async function recordBackendFailure(modelId: string, taskId: string, message: string): Promise<void> {
  await db().$transaction([
    db().aiModel.updateMany({
      where: { id: modelId },
      data: { healthy: false, healthFailures: { increment: 1 }, healthCheckedAt: new Date(), healthMessage: (TASK_FAILURE + message).slice(0, 300) },
    }),
    db().backendAttempt.create({ data: { modelId, taskId, ok: false, error: message.slice(0, 300) } }),
  ])
}

async function testWithTimeout(model: Parameters<typeof backendConfig>[0] & { backend: string }) {
  if (!isSupportedBackend(model.backend)) return { ok: false, message: `暂不支持该后端类型（${model.backend}）` }
  const timeout = new Promise<{ ok: boolean; message: string }>((resolve) => setTimeout(() => resolve({ ok: false, message: '健康检查超时' }), CHECK_TIMEOUT_MS).unref())
  return Promise.race([createAdapter(model.backend, backendConfig(model)).test(), timeout])
}

/**
 * The health check (a worker job): asks every enabled backend for its health or model
 * list. A backend that fails twice in a row is taken out of routing; one that answers
 * again (and whose cooldown after a failed task has passed, growing with its recent
 * failed attempts) is brought back.
 */
export async function checkBackends(): Promise<void> {
  const models = await db().aiModel.findMany({ where: { enabled: true } })
  const now = Date.now()
  let recovered = false
  await Promise.all(
    models.map(async (model) => {
      const isCoolingDown = !model.healthy && model.healthMessage?.startsWith(TASK_FAILURE) && model.healthCheckedAt && now - model.healthCheckedAt.getTime() < (await taskFailureCooldownMs(model.id))
      if (isCoolingDown) return
      const result = await testWithTimeout(model).catch((error: Error) => ({ ok: false, message: error.message }))
      const failures = result.ok ? 0 : model.healthFailures + 1
      await db().aiModel.update({
        where: { id: model.id },
        data: { healthy: result.ok || (model.healthy && failures < FAILED_CHECKS_TO_REMOVE), healthFailures: failures, healthCheckedAt: new Date(), healthMessage: result.ok ? null : result.message.slice(0, 300) },
      })
      if (result.ok && !model.healthy) recovered = true
    }),
  )
  // Its queued tasks were waiting for it, unpolled: wake the workers.
  if (recovered) await announceQueueChangeNow()
}

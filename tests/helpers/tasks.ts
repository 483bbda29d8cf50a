import { expect } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { claimNext, claimTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { callRoute, createUser } from './call-route'

/** A model row for tests; the demo renderer at full speed unless told otherwise. */
export async function createModel(data: Partial<Prisma.AiModelUncheckedCreateInput> = {}) {
  return db().aiModel.create({
    data: {
      name: 'demo',
      backend: 'demo',
      prices: { SD_TEXT2IMG: 10, SD_IMG2IMG: 10, SD_IMGINPAINT: 10, SD_IMGCONTROLNET: 10 },
      options: { stepMs: 0 },
      concurrency: 4,
      ...data,
    },
  })
}

/** A 10-point picture task submitted by a new user with 50 points on a new demo model, and claimed by `workerId`. */
export async function submitAndClaim(modelName: string, workerId: string) {
  const model = await createModel({ name: modelName })
  const user = await createUser({ points: 50 })
  const res = await callRoute(tasksRoute.POST, {
    token: user.token,
    body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: 'a heron', width: 64, height: 64, count: 1 } },
  })
  expect(res.status, res.body.errMessage).toBe(200)
  const claimed = (await claimTask(workerId))!
  expect(claimed.id).toBe(res.body.data.id)
  return { model, user, taskId: claimed.id, claimed }
}

/** A task row written straight into the database, finished unless `data` says otherwise (a new model unless it names one). */
export async function createTaskRow(userId: string, data: Partial<Prisma.TaskUncheckedCreateInput> = {}) {
  const modelId = data.modelId ?? (await createModel()).id
  return db().task.create({
    data: {
      userId,
      modelId,
      type: 'SD_TEXT2IMG',
      status: 'SUCCESS',
      stage: 'DONE',
      params: {},
      priceSnapshot: {},
      chargedPoints: 0,
      deadlineAt: new Date(),
      ...data,
    },
  })
}

/**
 * Claims and runs queued tasks in this process, as a worker would, until none is left
 * that it may take (rows another drainer held at that moment are tried again).
 */
export async function drainQueue(workerId = 'test-worker'): Promise<number> {
  let ran = 0
  const shutdown = new AbortController()
  for (;;) {
    const outcome = await claimNext(workerId)
    if (!outcome.task) {
      if (!outcome.contended) return ran
      await new Promise((resolve) => setTimeout(resolve, 10))
      continue
    }
    await runTask(outcome.task, workerId, shutdown.signal)
    ran++
  }
}

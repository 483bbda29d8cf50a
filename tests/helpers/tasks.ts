import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { claimNext } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'

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

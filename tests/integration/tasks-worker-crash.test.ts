import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { claimTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

// Workers killed mid-render lose SD WebUI jobs (the images go to the dead connection): each
// such task fails with one refund. The loss is ours, so it must not count against the
// backend: before, three lost jobs of two users took a healthy SD WebUI out of routing and
// its queue was refunded as BACKEND_DOWN instead of running.

let sd: FakeSd
beforeAll(async () => {
  sd = await startFakeSdWebui({ behaviour: 'slow', stepMs: 20 })
})
afterAll(async () => {
  await sd.close()
})

const submits = () => sd.bodies('/sdapi/v1/txt2img').length

async function submitAs(token: string, modelId: string, prompt: string): Promise<string> {
  const res = await callRoute(tasksRoute.POST, { token, body: { type: 'SD_TEXT2IMG', modelId, params: { prompt, width: 64, height: 64, count: 1 } } })
  expect(res.status).toBe(200)
  return res.body.data.id
}

/** Claims the task and starts it; once the backend has the job, the worker "dies" (lease gone, connection cut). */
async function runAndKill(taskId: string): Promise<void> {
  const before = submits()
  const claimed = await claimTask('w-killed')
  expect(claimed?.id).toBe(taskId)
  const dying = new AbortController()
  const run = runTask(claimed!, 'w-killed', dying.signal)
  await expect.poll(() => submits() - before, { timeout: 5_000 }).toBe(1)
  await db().task.update({ where: { id: taskId }, data: { leaseOwner: 'gone', leaseExpiresAt: new Date(Date.now() - 1) } })
  dying.abort()
  await run
}

describe('SD WebUI jobs lost with killed workers', () => {
  it('three of two users fail with one refund each; the backend stays in routing and runs the next task', async () => {
    const model = await createModel({ name: 'sd-survives', backend: 'sd-webui', endpoint: sd.url, concurrency: 1, options: { progressIntervalMs: 60_000 } })
    const alice = await createUser({ points: 50 })
    const bob = await createUser({ points: 50 })
    const lost: string[] = []
    for (const [i, user] of [alice, bob, alice].entries()) {
      const id = await submitAs(user.token, model.id, `lost ${i}`)
      await runAndKill(id)
      await sweepTasks()
      await drainQueue('w-survivor')
      lost.push(id)
    }
    const tasks = await db().task.findMany({ where: { id: { in: lost } } })
    expect(tasks.map((t) => [t.status, t.errorCode])).toEqual(lost.map(() => ['FAIL', 'BACKEND_LOST']))
    expect(await db().ledgerEntry.count({ where: { reference: { in: lost.map((id) => `task:${id}:refund`) } } })).toBe(3)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: true, outSince: null })

    const next = await submitAs(bob.token, model.id, 'after the crashes')
    await drainQueue('w-survivor')
    expect(await db().task.findUniqueOrThrow({ where: { id: next } })).toMatchObject({ status: 'SUCCESS', attempts: 1 })
    await expectLedgerInvariants()
  })
})

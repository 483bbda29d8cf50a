import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { claimTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

let sd: FakeSd
beforeAll(async () => {
  sd = await startFakeSdWebui()
})
afterAll(async () => {
  await sd.close()
})
beforeEach(() => {
  sd.set({ behaviour: 'normal', stepMs: undefined, busyAnswers: 0 })
})

async function submitOn(modelId: string, points = 50) {
  const user = await createUser({ points })
  const res = await callRoute(tasksRoute.POST, {
    token: user.token,
    body: { type: 'SD_TEXT2IMG', modelId, params: { prompt: 'a heron', width: 64, height: 64, count: 1 } },
  })
  expect(res.status).toBe(200)
  return { user, taskId: res.body.data.id as string }
}

const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const ledger = async (taskId: string) =>
  (await db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${taskId}:` } }, orderBy: { id: 'asc' } })).map((r) => [
    r.reference.split(':')[2],
    r.amount,
  ])
const submits = () => sd.bodies('/sdapi/v1/txt2img').length
/** Skips the backoff, as if its time had passed. */
const dueNow = (id: string) => db().task.update({ where: { id }, data: { runAfter: new Date() } })

describe('a busy backend', () => {
  it('answering busy 4 times and then accepting: the task succeeds, charged once, never refunded; busy answers use no attempts and back off 2, 4, 8, 16 s', async () => {
    sd.set({ behaviour: 'normal', busyAnswers: 4 })
    const model = await createModel({ name: 'busy-4', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { user, taskId } = await submitOn(model.id)
    const before = submits()
    const delays: number[] = []
    for (let busy = 1; busy <= 4; busy++) {
      await drainQueue()
      const row = await task(taskId)
      expect(row).toMatchObject({ status: 'PENDING', stage: 'QUEUED', attempts: 0 })
      expect(row.backendLog).toMatchObject([{ error: 'BUSY', busyInARow: busy }])
      delays.push(Math.round((row.runAfter.getTime() - Date.now()) / 1000))
      // Busy is not the backend's fault: it stays in routing.
      expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(true)
      await dueNow(taskId)
    }
    expect(delays).toEqual([2, 4, 8, 16])
    await drainQueue()
    expect(await task(taskId)).toMatchObject({ status: 'SUCCESS', attempts: 1, refundedAt: null })
    expect(submits() - before).toBe(5)
    expect(await ledger(taskId)).toEqual([['charge', -10]])
    expect(await points(user.id)).toBe(40)
  })

  it('busy for minutes: the wait grows to a minute at most and never past the deadline, where the sweeper fails it with one refund', async () => {
    sd.set({ behaviour: 'normal', busyAnswers: 1000 })
    const model = await createModel({ name: 'busy-long', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { user, taskId } = await submitOn(model.id)
    for (let i = 0; i < 8; i++) {
      await drainQueue()
      await dueNow(taskId)
    }
    await drainQueue()
    const row = await task(taskId)
    expect(row).toMatchObject({ status: 'PENDING', attempts: 0 })
    expect(row.runAfter.getTime() - Date.now()).toBeGreaterThan(55_000)
    expect(row.runAfter.getTime() - Date.now()).toBeLessThanOrEqual(60_000)
    // Close to its deadline, the next ask is at the deadline, not after.
    const deadlineAt = new Date(Date.now() + 5_000)
    await db().task.update({ where: { id: taskId }, data: { deadlineAt, runAfter: new Date() } })
    await drainQueue()
    expect((await task(taskId)).runAfter.getTime()).toBeLessThanOrEqual(deadlineAt.getTime())
    await db().task.update({ where: { id: taskId }, data: { deadlineAt: new Date(Date.now() - 1) } })
    await Promise.all([sweepTasks(), sweepTasks()])
    expect(await task(taskId)).toMatchObject({ status: 'FAIL', errorCode: 'TIMEOUT' })
    expect(await ledger(taskId)).toEqual([
      ['charge', -10],
      ['refund', 10],
    ])
    expect(await points(user.id)).toBe(50)
    sd.set({ busyAnswers: 0 })
    await expectLedgerInvariants()
  })
})

describe('probing the backend only when the last attempt left it unknown', () => {
  it('SD WebUI answering 500 once (it then knows the task id as finished, like the real server): the retry submits again and succeeds', async () => {
    sd.set('failing')
    const model = await createModel({ name: 'sd-500-once', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { user, taskId } = await submitOn(model.id)
    const before = submits()
    await drainQueue()
    expect(await task(taskId)).toMatchObject({ status: 'PENDING', stage: 'QUEUED', attempts: 1, probeBeforeSubmit: false })
    sd.set('normal')
    await db().aiModel.update({ where: { id: model.id }, data: { healthy: true } })
    await dueNow(taskId)
    await drainQueue()
    expect(await task(taskId)).toMatchObject({ status: 'SUCCESS', attempts: 2 })
    expect(submits() - before).toBe(2)
    expect(await ledger(taskId)).toEqual([['charge', -10]])
    expect(await points(user.id)).toBe(40)
  })

  it('a worker dies while SD WebUI renders: the sweeper marks the task to probe, the probe finds the job, and it fails with one refund instead of running twice', async () => {
    sd.set({ behaviour: 'slow', stepMs: 50 })
    const model = await createModel({ name: 'sd-dies', backend: 'sd-webui', endpoint: sd.url, concurrency: 1, options: { progressIntervalMs: 60_000 } })
    const { user, taskId } = await submitOn(model.id)
    const before = submits()
    const claimed = (await claimTask('w-sd-dies'))!
    expect(claimed).toMatchObject({ id: taskId, probeBeforeSubmit: false })
    const dying = new AbortController()
    const first = runTask(claimed, 'w-sd-dies', dying.signal)
    await expect.poll(() => submits() - before, { timeout: 5_000 }).toBe(1)
    // The worker process dies: nothing renews its lease, its connection to the backend is gone.
    await db().task.update({ where: { id: taskId }, data: { leaseOwner: 'gone', leaseExpiresAt: new Date(Date.now() - 1) } })
    dying.abort()
    await first
    await sweepTasks()
    expect(await task(taskId)).toMatchObject({ status: 'PENDING', stage: 'QUEUED', probeBeforeSubmit: true })
    await drainQueue('w-sd-survivor')
    expect(await task(taskId)).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_LOST' })
    expect(submits() - before).toBe(1)
    expect(await ledger(taskId)).toEqual([
      ['charge', -10],
      ['refund', 10],
    ])
    expect(await points(user.id)).toBe(50)
    sd.set('normal')
  })
})

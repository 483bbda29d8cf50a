// SIGTERM drain: a worker that must stop gives its running tasks a little time, then
// releases them and says so (NOTIFY), so an idle worker elsewhere takes them over at
// once instead of at its next idle check a minute later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { JOB_CHANNEL } from '@/lib/signals/job-signal'
import { CANCEL_SIGNAL_PREFIX } from '@/lib/signals/task-cancel'
import { cancelPendingTask } from '@/lib/tasks/finish-task'
import { startTaskRunner } from '@/lib/tasks/task-runner'
import { startWorker } from '@/lib/worker/start-worker'
import { startFakeComfyui, type FakeComfy } from '../fakes/comfyui'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel } from '../helpers/tasks'

let comfy: FakeComfy
let sd: FakeSd
beforeAll(async () => {
  comfy = await startFakeComfyui({ checkpoints: ['sd15.safetensors'] })
  sd = await startFakeSdWebui()
})
afterAll(async () => {
  await comfy.close()
  await sd.close()
})

async function submitOn(modelId: string) {
  const user = await createUser({ points: 50 })
  const res = await callRoute(tasksRoute.POST, {
    token: user.token,
    body: { type: 'SD_TEXT2IMG', modelId, params: { prompt: '夜航船', width: 256, height: 256, count: 1 } },
  })
  expect(res.status).toBe(200)
  return { user, taskId: res.body.data.id as string }
}

const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const ledger = async (taskId: string) =>
  (await db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${taskId}:` } }, orderBy: { id: 'asc' } })).map((r) => [r.kind, r.amount])
/** A ComfyUI model on the fake that polls its job often, one job at a time. */
const comfyModel = (name: string) =>
  createModel({ name, backend: 'comfyui', endpoint: comfy.url, checkpoint: 'sd15.safetensors', options: { pollIntervalMs: 20 }, concurrency: 1 })
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a draining worker', () => {
  it('ComfyUI job still rendering when the drain runs out: released, and a second worker finishes it at once; one submit, one charge, no refund', async () => {
    comfy.set({ behaviour: 'slow', stepMs: 100 })
    const model = await comfyModel('drain-comfy')
    const { user, taskId } = await submitOn(model.id)
    const logs: string[] = []
    const first = startTaskRunner(1, (m) => logs.push(m))
    await expect.poll(async () => (await task(taskId)).upstreamId, { timeout: 5_000 }).toBe(taskId)
    const firstOwner = (await task(taskId)).leaseOwner
    // The second worker is up and idle: the task is held by the first.
    const second = startWorker()
    try {
      await pause(500)
      expect((await task(taskId)).leaseOwner).toBe(firstOwner)
      // SIGTERM with a short drain: the job cannot finish in 100 ms.
      await first.stop(100)
      expect(logs.some((m) => m.includes('releasing 1 unfinished task'))).toBe(true)
      await expect.poll(async () => (await task(taskId)).status, { timeout: 10_000 }).toBe('SUCCESS')
      const done = await task(taskId)
      expect(done).toMatchObject({ attempts: 1, upstreamId: taskId, refundedAt: null })
      expect(done.results).toHaveLength(1)
      expect(comfy.calls.filter((c) => c.method === 'POST' && c.path === '/prompt')).toHaveLength(1)
      expect(await ledger(taskId)).toEqual([['TASK_CHARGE', -10]])
      expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(40)
    } finally {
      await second.stop()
      comfy.set('normal')
    }
    await expectLedgerInvariants()
  })

  it('a cancel while the worker drains still reaches it: the run stops at once, not at the next heartbeat', async () => {
    // No progress polling, so nothing but the cancel signal tells the run before its heartbeat (a quarter of the lease).
    sd.set({ behaviour: 'slow', stepMs: 1_000 })
    const model = await createModel({ name: 'drain-cancel', backend: 'sd-webui', endpoint: sd.url, concurrency: 1, options: { progressIntervalMs: 60_000 } })
    const { user, taskId } = await submitOn(model.id)
    const worker = startWorker()
    try {
      await expect.poll(() => sd.bodies('/sdapi/v1/txt2img').filter((b) => b.force_task_id === taskId).length, { timeout: 5_000 }).toBe(1)
      // SIGTERM: the drain gives the running task WORKER_DRAIN_SECONDS (25 s) to finish.
      const stopping = worker.stop()
      await pause(100)
      // The user cancels on the web, another process: the task ends and the signal goes out by NOTIFY only.
      expect(await cancelPendingTask(taskId, { userId: user.id, reason: '已取消，积分已退还' })).toMatchObject({ id: taskId })
      await db().$executeRaw`SELECT pg_notify(${JOB_CHANNEL}, ${`${CANCEL_SIGNAL_PREFIX}${taskId}`})`
      const ended = await Promise.race([stopping.then(() => 'stopped'), pause(5_000).then(() => 'still draining')])
      expect(ended).toBe('stopped')
      expect(await task(taskId)).toMatchObject({ status: 'CANCELED' })
    } finally {
      await worker.stop()
      sd.set('normal')
    }
  })

  it('a task claimed just as the drain begins is drained with the rest, never left running once stop() returns', async () => {
    comfy.set({ behaviour: 'slow', stepMs: 100 })
    const model = await comfyModel('drain-claiming')
    // Another claimer holds the backend's row, so this worker's claim waits for it (a submit's foreign key does not).
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let locked!: () => void
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const holding = db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "AiModel" WHERE "id" = ${model.id} FOR NO KEY UPDATE`
        locked()
        await held
      },
      { timeout: 10_000 },
    )
    await isLocked
    const { taskId } = await submitOn(model.id)
    const logs: string[] = []
    const runner = startTaskRunner(1, (m) => logs.push(m))
    try {
      await pause(300)
      const stopping = runner.stop(500)
      await pause(200)
      release()
      await holding
      await stopping
      // The claim that was waiting is this worker's to finish or release before it says it stopped.
      expect(runner.running).toBe(0)
      const row = await task(taskId)
      expect(row.status === 'SUCCESS' || (row.status === 'PENDING' && row.leaseOwner === null)).toBe(true)
      await pause(300)
      expect(runner.running).toBe(0)
    } finally {
      release()
      await runner.stop(0)
      comfy.set('normal')
    }
  })

  it('SD WebUI job cut off mid-render by the drain: released to be probed first; the second worker finds the job there and fails it with one refund, never running it twice', async () => {
    sd.set({ behaviour: 'slow', stepMs: 100 })
    const model = await createModel({ name: 'drain-sd', backend: 'sd-webui', endpoint: sd.url, concurrency: 1, options: { progressIntervalMs: 60_000 } })
    const { user, taskId } = await submitOn(model.id)
    const submits = () => sd.bodies('/sdapi/v1/txt2img').filter((b) => b.force_task_id === taskId).length
    const first = startTaskRunner(1, () => undefined)
    await expect.poll(submits, { timeout: 5_000 }).toBe(1)
    const second = startWorker()
    try {
      await pause(500)
      await first.stop(50)
      await expect.poll(async () => (await task(taskId)).status, { timeout: 10_000 }).toBe('FAIL')
      expect(await task(taskId)).toMatchObject({ errorCode: 'BACKEND_LOST', probeBeforeSubmit: true })
      expect(submits()).toBe(1)
      expect(await ledger(taskId)).toEqual([
        ['TASK_CHARGE', -10],
        ['TASK_REFUND', 10],
      ])
      expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(50)
    } finally {
      await second.stop()
      sd.set('normal')
    }
  })
  it('the question "do you have this job?" failing (a gateway 502) leaves it to be asked again: never a blind second submit', async () => {
    sd.set({ behaviour: 'slow', stepMs: 100 })
    const model = await createModel({ name: 'drain-sd-probe', backend: 'sd-webui', endpoint: sd.url, concurrency: 1, options: { progressIntervalMs: 60_000 } })
    const { taskId } = await submitOn(model.id)
    const submits = () => sd.bodies('/sdapi/v1/txt2img').filter((b) => b.force_task_id === taskId).length
    const first = startTaskRunner(1, () => undefined)
    await expect.poll(submits, { timeout: 5_000 }).toBe(1)
    await first.stop(50)
    expect(await task(taskId)).toMatchObject({ status: 'PENDING', probeBeforeSubmit: true })
    sd.set({ progressGatewayErrors: 1 })
    const second = startWorker()
    try {
      await expect.poll(async () => (await task(taskId)).attempts, { timeout: 10_000 }).toBe(2)
      await expect.poll(async () => (await task(taskId)).status, { timeout: 15_000 }).toBe('FAIL')
      expect(await task(taskId)).toMatchObject({ errorCode: 'BACKEND_LOST', probeBeforeSubmit: true })
      expect(submits()).toBe(1)
      expect(await ledger(taskId)).toEqual([
        ['TASK_CHARGE', -10],
        ['TASK_REFUND', 10],
      ])
    } finally {
      await second.stop()
      sd.set({ behaviour: 'normal', progressGatewayErrors: 0 })
    }
  })
})

import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as cancelRoute from '@/app/api/tasks/[id]/cancel/route'
import { db } from '@/lib/db'
import { readStoredFile } from '@/lib/storage/storage'
import { claimTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { startFakeComfyui, type FakeComfy } from '../fakes/comfyui'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

let sd: FakeSd
let comfy: FakeComfy

beforeAll(async () => {
  sd = await startFakeSdWebui()
  comfy = await startFakeComfyui({ checkpoints: ['sd15.safetensors'] })
})
afterAll(async () => {
  await sd.close()
  await comfy.close()
})

async function submitOn(modelId: string, points = 50) {
  const user = await createUser({ points })
  const res = await callRoute(tasksRoute.POST, {
    token: user.token,
    body: { type: 'SD_TEXT2IMG', modelId, params: { prompt: 'a fox', width: 256, height: 256, count: 2 } },
  })
  expect(res.status).toBe(200)
  return { user, task: res.body.data as { id: string } }
}

const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const refunds = (id: string) => db().ledgerEntry.count({ where: { reference: `task:${id}:refund` } })
/** Skips the retry backoff, as if its time had passed. */
const dueNow = (id: string) => db().task.update({ where: { id }, data: { runAfter: new Date() } })

describe('tasks on real backend protocols', () => {
  it('SD WebUI: submit → worker → backend → SUCCESS with stored images and thumbnails', async () => {
    sd.set('normal')
    const model = await createModel({ name: 'sd-ok', backend: 'sd-webui', endpoint: sd.url, checkpoint: 'sd15.safetensors', concurrency: 1 })
    const { user, task: t } = await submitOn(model.id)
    await drainQueue()
    const done = await task(t.id)
    expect(done).toMatchObject({ status: 'SUCCESS', progress: 100, attempts: 1 })
    const results = done.results as Array<{ url: string; thumbUrl: string; seed: number }>
    expect(results).toHaveLength(2)
    for (const r of results) {
      expect((await sharp((await readStoredFile(r.url.replace('/files/', '')))!).metadata()).format).toBe('png')
      expect((await sharp((await readStoredFile(r.thumbUrl.replace('/files/', '')))!).metadata()).format).toBe('webp')
      expect(r.seed).toEqual(expect.any(Number))
    }
    expect(sd.bodies('/sdapi/v1/txt2img').at(-1)).toMatchObject({ prompt: 'a fox', batch_size: 2, force_task_id: t.id })
    expect(await points(user.id)).toBe(50 - 20)
  })

  it('SD WebUI answering 500 while it still answers its health check: the task’s own failure, tried again after 2 s and 5 s, then FAIL with one refund and the backend’s reason; the backend stays in routing', async () => {
    sd.set('failing')
    const model = await createModel({ name: 'sd-500', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { user, task: t } = await submitOn(model.id)
    const before = sd.bodies('/sdapi/v1/txt2img').length
    for (let attempt = 1; attempt <= 3; attempt++) {
      await dueNow(t.id)
      await drainQueue()
      const row = await task(t.id)
      expect(row.attempts).toBe(attempt)
      expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: true, healthFailures: 0 })
      if (attempt < 3) expect(row).toMatchObject({ status: 'PENDING', stage: 'QUEUED' })
      if (attempt < 3) expect(Math.round((row.runAfter.getTime() - Date.now()) / 1000)).toBe([2, 5][attempt - 1])
    }
    const failed = await task(t.id)
    expect(failed).toMatchObject({ status: 'FAIL', errorCode: 'UPSTREAM_FAILED' })
    expect(failed.errorMessage).toMatch(/^生成失败，积分已退还（后端出错（HTTP 500）：.*CUDA out of memory/)
    expect(sd.bodies('/sdapi/v1/txt2img').length - before).toBe(3)
    expect(await refunds(t.id)).toBe(1)
    expect(await points(user.id)).toBe(50)
    await Promise.all([sweepTasks(), drainQueue()])
    expect(await refunds(t.id)).toBe(1)
    await expectLedgerInvariants()
  })

  it('SD WebUI answering 500 and then failing its health check: the backend is taken out of routing at once', async () => {
    sd.set('failing')
    const model = await createModel({ name: 'sd-500-down', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { task: t } = await submitOn(model.id)
    sd.set({ behaviour: 'failing', brokenLists: true })
    try {
      await drainQueue()
      expect(await task(t.id)).toMatchObject({ status: 'PENDING', stage: 'QUEUED', attempts: 1 })
      expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: false, healthFailures: 1 })
    } finally {
      sd.set({ behaviour: 'normal', brokenLists: false })
    }
  })

  it('SD WebUI rejecting the job (422): FAIL at once, no retry, refunded', async () => {
    sd.set('reject')
    const model = await createModel({ name: 'sd-422', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { user, task: t } = await submitOn(model.id)
    await drainQueue()
    expect(await task(t.id)).toMatchObject({ status: 'FAIL', errorCode: 'REJECTED', attempts: 1 })
    expect(await points(user.id)).toBe(50)
  })

  it('a hanging backend: the deadline fails the task with a refund and the run stops', async () => {
    sd.set('hanging')
    const model = await createModel({ name: 'sd-hang', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { user, task: t } = await submitOn(model.id)
    const claimed = (await claimTask('w-hang'))!
    await db().task.update({ where: { id: t.id }, data: { deadlineAt: new Date(Date.now() + 300) } })
    await runTask(claimed, 'w-hang', new AbortController().signal)
    expect(await task(t.id)).toMatchObject({ status: 'FAIL', errorCode: 'TIMEOUT' })
    expect(await points(user.id)).toBe(50)
    sd.set('normal')
  })

  it('cancelling a running task reaches its worker by NOTIFY, which interrupts the backend; refunded once', async () => {
    sd.set({ behaviour: 'slow', stepMs: 200 })
    const model = await createModel({ name: 'sd-cancel', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const { startWorker } = await import('@/lib/worker/start-worker')
    const worker = startWorker()
    try {
      const { user, task: t } = await submitOn(model.id)
      await expect.poll(async () => (await task(t.id)).stage, { timeout: 10_000 }).toBe('SUBMITTING')
      const interruptsBefore = sd.calls.filter((c) => c.path === '/sdapi/v1/interrupt').length
      expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id: t.id } })).status).toBe(200)
      // Well before the 15 s heartbeat: the signal, not polling, stopped it.
      await expect.poll(() => sd.calls.filter((c) => c.path === '/sdapi/v1/interrupt').length, { timeout: 3_000 }).toBeGreaterThan(interruptsBefore)
      expect(await task(t.id)).toMatchObject({ status: 'CANCELED', results: [] })
      expect(await refunds(t.id)).toBe(1)
      expect(await points(user.id)).toBe(50)
    } finally {
      await worker.stop()
      sd.set('normal')
    }
  })

  it('ComfyUI: a worker dies after the backend accepted the job; another resumes waiting and never submits twice', async () => {
    comfy.set({ behaviour: 'slow', stepMs: 40 })
    const model = await createModel({ name: 'comfy', backend: 'comfyui', endpoint: comfy.url, checkpoint: 'sd15.safetensors', concurrency: 1 })
    const { user, task: t } = await submitOn(model.id)
    const claimed = (await claimTask('w-comfy-dies'))!
    const dying = new AbortController()
    const first = runTask(claimed, 'w-comfy-dies', dying.signal)
    await expect.poll(async () => (await task(t.id)).upstreamId, { timeout: 5_000 }).toBe(t.id)
    // The worker process dies: its run stops and nothing renews the lease.
    await db().task.update({ where: { id: t.id }, data: { leaseOwner: 'gone', leaseExpiresAt: new Date(Date.now() - 1) } })
    dying.abort()
    await first
    await sweepTasks()
    expect(await task(t.id)).toMatchObject({ status: 'PENDING', stage: 'RUNNING', leaseOwner: null })
    await drainQueue('w-comfy-survivor')
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS', upstreamId: t.id })
    expect(comfy.calls.filter((c) => c.method === 'POST' && c.path === '/prompt')).toHaveLength(1)
    expect(await points(user.id)).toBe(30)
    comfy.set('normal')
  })
  it('ComfyUI: a submit queued but answered without its prompt_id is asked about before the retry, which resumes it instead of queueing it again', async () => {
    comfy.set('malformed')
    const model = await createModel({ name: 'comfy-unread', backend: 'comfyui', endpoint: comfy.url, checkpoint: 'sd15.safetensors', concurrency: 1 })
    const { user, task: t } = await submitOn(model.id)
    const prompts = () => comfy.calls.filter((c) => c.method === 'POST' && c.path === '/prompt' && (c.body as { prompt_id?: string }).prompt_id === t.id)
    await drainQueue('w-comfy-unread')
    expect(await task(t.id)).toMatchObject({ status: 'PENDING', stage: 'QUEUED', probeBeforeSubmit: true })
    comfy.set('normal')
    await db().task.update({ where: { id: t.id }, data: { runAfter: new Date() } })
    await drainQueue('w-comfy-unread')
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS' })
    expect(prompts()).toHaveLength(1)
    expect(await points(user.id)).toBe(30)
    await expectLedgerInvariants()
  })
  it('ComfyUI: a worker that finds its task handed over (its lease lapsed in an outage) leaves the job to the new worker, never interrupting it', async () => {
    comfy.set({ behaviour: 'slow', stepMs: 150 })
    const model = await createModel({ name: 'comfy-handover', backend: 'comfyui', endpoint: comfy.url, checkpoint: 'sd15.safetensors', concurrency: 1 })
    const submits = () => comfy.calls.filter((c) => c.method === 'POST' && c.path === '/prompt').length
    const submitsBefore = submits()
    const { user, task: t } = await submitOn(model.id)
    const claimed = (await claimTask('w-comfy-lapsed'))!
    const first = runTask(claimed, 'w-comfy-lapsed', new AbortController().signal)
    await expect.poll(async () => (await task(t.id)).upstreamId, { timeout: 5_000 }).toBe(t.id)
    // What the sweeper does with a lapsed lease on an accepted job: hands it to the next worker to wait for.
    await db().task.update({ where: { id: t.id }, data: { leaseOwner: null, leaseExpiresAt: null, stage: 'RUNNING' } })
    const stops = () => comfy.calls.filter((c) => c.path === '/interrupt' || (c.method === 'POST' && c.path === '/queue')).length
    const stopsBefore = stops()
    // Its next progress write finds the row no longer its own, and the run ends.
    await first
    expect(stops()).toBe(stopsBefore)
    await drainQueue('w-comfy-taker')
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS', upstreamId: t.id })
    expect(submits() - submitsBefore).toBe(1)
    expect(await points(user.id)).toBe(30)
    comfy.set('normal')
  })
})

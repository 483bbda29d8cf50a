import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { checkBackends } from '@/lib/models/backend-health'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import type { RunningWorker } from '@/lib/worker/background-worker'
import { startWorker } from '@/lib/worker/start-worker'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

// One user's failure is no one else's outage: a backend that answers a task with an
// error but still answers its health check keeps serving everyone else; a backend that
// does not answer leaves routing, new submits to it are refused, its queue is refunded.

let sd: FakeSd
let worker: RunningWorker | null = null
beforeAll(async () => {
  sd = await startFakeSdWebui()
})
afterEach(async () => {
  await worker?.stop()
  worker = null
  sd.set({ behaviour: 'normal', oomPrompts: [] })
})
afterAll(async () => {
  await sd.close()
})

const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const refunds = async (taskId: string) => db().ledgerEntry.count({ where: { reference: `task:${taskId}:refund` } })

async function submit(token: string, modelId: string, prompt: string) {
  return callRoute(tasksRoute.POST, { token, body: { type: 'SD_TEXT2IMG', modelId, params: { prompt, width: 64, height: 64, count: 1 } } })
}

async function setOutageLimit(seconds: number) {
  const value = String(seconds)
  await db().siteConfig.upsert({
    where: { name: 'BACKEND_OUTAGE_REFUND_SECONDS' },
    create: { name: 'BACKEND_OUTAGE_REFUND_SECONDS', value },
    update: { value },
  })
  invalidateConfigCache()
}

describe('a lone SD WebUI answering 500 for one user’s prompt', () => {
  it('that task FAILs with one refund and the backend’s reason; another user’s task submitted just after it SUCCEEDs; the backend stays in routing', async () => {
    sd.set({ behaviour: 'normal', stepMs: 5, oomPrompts: ['an enormous poster'] })
    const model = await createModel({ name: 'lone-sd', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const alice = await createUser({ points: 50 })
    const bob = await createUser({ points: 50 })
    worker = startWorker()
    const started = Date.now()
    const failing = await submit(alice.token, model.id, 'an enormous poster')
    expect(failing.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const ordinary = await submit(bob.token, model.id, 'a heron')
    expect(ordinary.status).toBe(200)

    await expect.poll(async () => (await task(ordinary.body.data.id)).status, { timeout: 60_000, interval: 200 }).toBe('SUCCESS')
    await expect.poll(async () => (await task(failing.body.data.id)).status, { timeout: 60_000, interval: 200 }).toBe('FAIL')
    // Three attempts within about 20 s, not minutes.
    expect(Date.now() - started).toBeLessThan(25_000)
    const failed = await task(failing.body.data.id)
    expect(failed).toMatchObject({ attempts: 3, errorCode: 'UPSTREAM_FAILED' })
    expect(failed.errorMessage).toContain('积分已退还')
    expect(failed.errorMessage).toContain('CUDA out of memory')
    expect(await refunds(failed.id)).toBe(1)
    expect(await points(alice.id)).toBe(50)
    expect(await points(bob.id)).toBe(40)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: true, outSince: null })
    await expectLedgerInvariants()
  })

  it('while it waits to be tried again, its page says so', async () => {
    sd.set({ behaviour: 'normal', oomPrompts: ['an enormous poster'] })
    const model = await createModel({ name: 'lone-sd-note', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const alice = await createUser({ points: 50 })
    const res = await submit(alice.token, model.id, 'an enormous poster')
    await drainQueue()
    const view = await callRoute(taskRoute.GET, { token: alice.token, params: { id: res.body.data.id } })
    expect(view.body.data).toMatchObject({ status: 'PENDING', stage: 'QUEUED', queuePosition: 1 })
    expect(view.body.data.waitingNote).toContain('稍后自动重试')
    const row = await task(res.body.data.id)
    expect(row.runAfter.getTime() - Date.now()).toBeLessThanOrEqual(2_000)
    await db().task.update({ where: { id: row.id }, data: { runAfter: new Date() } })
    await drainQueue()
    expect((await task(row.id)).runAfter.getTime() - Date.now()).toBeLessThanOrEqual(5_000)
    await db().task.update({ where: { id: row.id }, data: { runAfter: new Date() } })
    await drainQueue()
    expect(await task(row.id)).toMatchObject({ status: 'FAIL', attempts: 3 })
  })

  it('tasks of several users failing on a backend that still answers checks take it out of routing; one user’s retries never do', async () => {
    sd.set('failing')
    const model = await createModel({ name: 'fails-all', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const alice = await createUser({ points: 100 })
    const one = await submit(alice.token, model.id, 'first')
    for (let i = 0; i < 3; i++) {
      await db().task.updateMany({ where: { id: one.body.data.id }, data: { runAfter: new Date() } })
      await drainQueue()
    }
    expect(await task(one.body.data.id)).toMatchObject({ status: 'FAIL', attempts: 3 })
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(true)
    const second = await submit(alice.token, model.id, 'second')
    await drainQueue()
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(true)
    const bob = await createUser({ points: 100 })
    await submit(bob.token, model.id, 'third')
    await db().task.updateMany({ where: { id: second.body.data.id }, data: { runAfter: new Date(Date.now() + 60_000) } })
    await drainQueue()
    const out = await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })
    expect(out).toMatchObject({ healthy: false })
    expect(out.outSince).not.toBeNull()
    expect(out.healthMessage).toContain('多个用户的任务接连失败')
  })
})

describe('a lone backend that is down', () => {
  it('takes itself out on the first unanswered submit; new submits are refused at once with nothing charged; queued tasks are refunded within the set time', async () => {
    const down = await startFakeSdWebui()
    await down.close()
    const model = await createModel({ name: '离线的 SD', backend: 'sd-webui', endpoint: down.url, concurrency: 1 })
    await setOutageLimit(60)
    const alice = await createUser({ points: 50 })
    const queued = await submit(alice.token, model.id, 'a heron')
    expect(queued.status).toBe(200)
    await drainQueue()
    const out = await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })
    expect(out.healthy).toBe(false)
    const outAt = out.outSince!.getTime()

    const bob = await createUser({ points: 50 })
    const refused = await submit(bob.token, model.id, 'a crane')
    expect(refused.status).toBe(503)
    expect(refused.body.errMessage).toContain('离线的 SD')
    expect(refused.body.errMessage).toContain('暂时不可用')
    expect(await points(bob.id)).toBe(50)
    expect(await db().task.count({ where: { userId: bob.id } })).toBe(0)

    const view = await callRoute(taskRoute.GET, { token: alice.token, params: { id: queued.body.data.id } })
    expect(view.body.data.waitingNote).toContain('暂时不可用')

    worker = startWorker()
    await expect.poll(async () => (await task(queued.body.data.id)).status, { timeout: 65_000, interval: 250 }).toBe('FAIL')
    const failed = await task(queued.body.data.id)
    expect(failed.finishedAt!.getTime() - outAt).toBeLessThanOrEqual(60_000)
    expect(failed.finishedAt!.getTime() - outAt).toBeGreaterThanOrEqual(30_000)
    expect(failed).toMatchObject({ errorCode: 'BACKEND_DOWN' })
    expect(failed.errorMessage).toContain('离线的 SD')
    expect(await refunds(failed.id)).toBe(1)
    expect(await points(alice.id)).toBe(50)
    await setOutageLimit(120)
    await expectLedgerInvariants()
  })

  it('a task submitted before its backend went out waits the set time from the outage, not from its submit; a pool with an instance left still takes submits', async () => {
    await setOutageLimit(120)
    const [a, b] = await Promise.all([startFakeSdWebui(), startFakeSdWebui()])
    const first = await createModel({ name: 'pool-a', backend: 'sd-webui', endpoint: a.url, concurrency: 1, pool: 'iso-pool' })
    const second = await createModel({ name: 'pool-b', backend: 'sd-webui', endpoint: b.url, concurrency: 1, pool: 'iso-pool' })
    const alice = await createUser({ points: 100 })
    const early = await submit(alice.token, first.id, 'a heron')
    await db().task.update({ where: { id: early.body.data.id }, data: { createdAt: new Date(Date.now() - 10 * 60_000) } })
    // One instance out: the pool still takes submits, and nothing is stranded.
    await db().aiModel.update({ where: { id: first.id }, data: { healthy: false, outSince: new Date(Date.now() - 5 * 60_000) } })
    expect((await submit(alice.token, first.id, 'a crane')).status).toBe(200)
    await sweepTasks()
    expect((await task(early.body.data.id)).status).toBe('PENDING')
    // The whole pool out for 30 s: the task waits on; past the limit it is refunded.
    await db().aiModel.update({ where: { id: second.id }, data: { healthy: false, outSince: new Date(Date.now() - 30_000) } })
    expect((await submit(alice.token, first.id, 'a stork')).status).toBe(503)
    await sweepTasks()
    expect((await task(early.body.data.id)).status).toBe('PENDING')
    await db().aiModel.update({ where: { id: second.id }, data: { outSince: new Date(Date.now() - 120_000) } })
    await sweepTasks()
    expect(await task(early.body.data.id)).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_DOWN' })
    // The health check brings an instance back and clears its outage.
    await checkBackends()
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ healthy: true, outSince: null })
    await a.close()
    await b.close()
    await expectLedgerInvariants()
  })

  it('a stranded task a worker claims while the sweep is failing it runs on: not failed, not refunded', async () => {
    await setOutageLimit(60)
    const model = await createModel({ name: 'back-again', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const alice = await createUser({ points: 50 })
    const queued = (await submit(alice.token, model.id, 'a heron')).body.data.id as string
    await db().task.update({ where: { id: queued }, data: { createdAt: new Date(Date.now() - 10 * 60_000) } })
    await db().aiModel.update({ where: { id: model.id }, data: { healthy: false, outSince: new Date(Date.now() - 10 * 60_000) } })
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // The backend came back and a worker claims the task, its transaction holding the row while the sweep runs.
    const claiming = db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "Task" WHERE "id" = ${queued} FOR UPDATE`
      await held
      await tx.task.update({ where: { id: queued }, data: { stage: 'RUNNING', leaseOwner: 'worker-x', leaseExpiresAt: new Date(Date.now() + 60_000) } })
    })
    await new Promise((r) => setTimeout(r, 100))
    const sweeping = sweepTasks()
    await new Promise((r) => setTimeout(r, 300))
    release()
    await claiming
    await sweeping
    expect(await task(queued)).toMatchObject({ status: 'PENDING', stage: 'RUNNING', leaseOwner: 'worker-x' })
    expect(await refunds(queued)).toBe(0)
    await db().task.update({ where: { id: queued }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await db().aiModel.update({ where: { id: model.id }, data: { healthy: true, outSince: null } })
    await drainQueue()
    expect(await task(queued)).toMatchObject({ status: 'SUCCESS' })
    await expectLedgerInvariants()
  })

  it('a task pinned to one pool instance that failed there once is tried there again, though the pool has another instance', async () => {
    const [a, b] = await Promise.all([startFakeSdWebui(), startFakeSdWebui()])
    const first = await createModel({ name: 'retry-a', backend: 'sd-webui', endpoint: a.url, concurrency: 1, pool: 'retry-pool' })
    await createModel({ name: 'retry-b', backend: 'sd-webui', endpoint: b.url, concurrency: 1, pool: 'retry-pool' })
    const alice = await createUser({ points: 100 })
    const pinned = await submit(alice.token, first.id, 'a heron')
    // As a button's task after one retryable failure on its parent's instance.
    await db().task.update({ where: { id: pinned.body.data.id }, data: { poolKey: null, attempts: 1, runAfter: new Date(Date.now() - 1000) } })
    await drainQueue()
    expect(await task(pinned.body.data.id)).toMatchObject({ status: 'SUCCESS', modelId: first.id, attempts: 2 })
    await a.close()
    await b.close()
    await expectLedgerInvariants()
  })

  it('a task pinned to one pool instance (a Midjourney button) that the console switched off says so and is refunded within the set time', async () => {
    await setOutageLimit(120)
    const [a, b] = await Promise.all([startFakeSdWebui(), startFakeSdWebui()])
    const first = await createModel({ name: 'pin-a', backend: 'sd-webui', endpoint: a.url, concurrency: 1, pool: 'pin-pool' })
    await createModel({ name: 'pin-b', backend: 'sd-webui', endpoint: b.url, concurrency: 1, pool: 'pin-pool' })
    const alice = await createUser({ points: 100 })
    const pinned = await submit(alice.token, first.id, 'a heron')
    // As a button's task is queued: for its parent's instance only (no pool key).
    await db().task.update({ where: { id: pinned.body.data.id }, data: { poolKey: null, createdAt: new Date(Date.now() - 60_000) } })
    await db().aiModel.update({ where: { id: first.id }, data: { enabled: false } })
    const view = await callRoute(taskRoute.GET, { token: alice.token, params: { id: pinned.body.data.id } })
    expect(view.body.data.waitingNote).toContain('模型「pin-a」暂时不可用')
    await sweepTasks()
    expect((await task(pinned.body.data.id)).status).toBe('PENDING')

    await db().task.update({ where: { id: pinned.body.data.id }, data: { createdAt: new Date(Date.now() - 120_000) } })
    await sweepTasks()
    expect(await task(pinned.body.data.id)).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_DOWN' })
    expect(await refunds(pinned.body.data.id)).toBe(1)
    expect(await points(alice.id)).toBe(100)
    await a.close()
    await b.close()
    await expectLedgerInvariants()
  })
})

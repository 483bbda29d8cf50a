import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { claimTask } from '@/lib/tasks/claim-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import type { RunningWorker } from '@/lib/worker/background-worker'
import { startWorker } from '@/lib/worker/start-worker'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel } from '../helpers/tasks'

// The worker's clocks come from the environment (README.md, Configuration): the lease of a
// claimed task (WORKER_LEASE_SECONDS; the sweeper looks twice per lease) and the health
// check's interval (BACKEND_CHECK_SECONDS). Read once per process, so set before anything runs.
vi.hoisted(() => {
  process.env.WORKER_LEASE_SECONDS = '4'
  process.env.BACKEND_CHECK_SECONDS = '2'
})

let sd: FakeSd
let worker: RunningWorker | null = null
beforeAll(async () => {
  sd = await startFakeSdWebui({ behaviour: 'normal', stepMs: 0 })
})
afterEach(async () => {
  await worker?.stop()
  worker = null
})
afterAll(async () => {
  await sd.close()
})

const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const refunds = async (taskId: string) => db().ledgerEntry.count({ where: { reference: `task:${taskId}:refund` } })

async function submit(token: string, modelId: string, prompt: string) {
  const res = await callRoute(tasksRoute.POST, { token, body: { type: 'SD_TEXT2IMG', modelId, params: { prompt, width: 64, height: 64, count: 1 } } })
  expect(res.status).toBe(200)
  return res.body.data.id as string
}

describe('WORKER_LEASE_SECONDS', () => {
  it('a claim holds the task for the set lease; a worker that vanished loses it to a live one within 1.5 leases', async () => {
    const model = await createModel({ name: 'lease-demo' })
    const alice = await createUser({ points: 50 })
    const id = await submit(alice.token, model.id, 'a heron')
    // A worker claims the task and is never heard from again (no heartbeat, no settle).
    const claimed = await claimTask('vanished-worker')
    expect(claimed?.id).toBe(id)
    const lease = (await task(id)).leaseExpiresAt!.getTime() - Date.now()
    expect(lease).toBeGreaterThan(2_500)
    expect(lease).toBeLessThanOrEqual(4_000)

    const started = Date.now()
    worker = startWorker()
    await expect.poll(async () => (await task(id)).status, { timeout: 20_000, interval: 100 }).toBe('SUCCESS')
    // Lease (≤ 4 s) plus one sweep (2 s) and the run, with room for a busy machine; the default lease alone is 60 s.
    expect(Date.now() - started).toBeLessThan(12_000)
    expect(await task(id)).toMatchObject({ attempts: 2, leaseOwner: null })
    expect(await refunds(id)).toBe(0)
    await expectLedgerInvariants()
  })

  it('a task stranded on an out backend fails within BACKEND_OUTAGE_REFUND_SECONDS: the sweeper looks ahead by its own interval (2 s), not 30 s', async () => {
    await db().siteConfig.upsert({
      where: { name: 'BACKEND_OUTAGE_REFUND_SECONDS' },
      create: { name: 'BACKEND_OUTAGE_REFUND_SECONDS', value: '60' },
      update: { value: '60' },
    })
    invalidateConfigCache()
    const model = await createModel({ name: 'stranded-sd', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const alice = await createUser({ points: 50 })
    const id = await submit(alice.token, model.id, 'a crane')
    await db().task.update({ where: { id }, data: { createdAt: new Date(Date.now() - 10 * 60_000) } })
    // Out for 50 s: with the 30 s sweep of the default lease it would be due; with a 2 s sweep it waits on.
    await db().aiModel.update({ where: { id: model.id }, data: { healthy: false, outSince: new Date(Date.now() - 50_000) } })
    await sweepTasks()
    expect((await task(id)).status).toBe('PENDING')
    await db().aiModel.update({ where: { id: model.id }, data: { outSince: new Date(Date.now() - 58_500) } })
    await sweepTasks()
    expect(await task(id)).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_DOWN' })
    expect(await refunds(id)).toBe(1)
    await db().aiModel.update({ where: { id: model.id }, data: { enabled: false } })
    await expectLedgerInvariants()
  })
})

describe('BACKEND_CHECK_SECONDS', () => {
  it('a backend whose health check starts failing leaves routing after two checks at the set interval; the next submit is refused, nothing charged', async () => {
    const broken = await startFakeSdWebui({ behaviour: 'normal' })
    const model = await createModel({ name: '会坏的 SD', backend: 'sd-webui', endpoint: broken.url, concurrency: 1 })
    const bob = await createUser({ points: 50 })
    worker = startWorker()
    broken.set({ brokenLists: true })
    const brokeAt = Date.now()
    await expect.poll(async () => (await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy, { timeout: 20_000, interval: 100 }).toBe(false)
    // Two checks 2 s apart (the first may come at once), with room for a busy machine: not two minutes.
    expect(Date.now() - brokeAt).toBeLessThan(15_000)
    expect(broken.calls.filter((c) => c.path === '/sdapi/v1/sd-models').length).toBeGreaterThanOrEqual(2)
    const refused = await callRoute(tasksRoute.POST, {
      token: bob.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: 'a stork', count: 1 } },
    })
    expect(refused.status).toBe(503)
    expect(refused.body.errMessage).toBe('模型「会坏的 SD」暂时不可用，请稍后再试（本次未扣积分）')
    expect((await db().user.findUniqueOrThrow({ where: { id: bob.id } })).points).toBe(50)
    await broken.close()
  })
})

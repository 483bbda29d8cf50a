import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { checkBackends } from '@/lib/models/backend-health'
import { claimTask } from '@/lib/tasks/claim-task'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

let fakes: FakeSd[] = []
const generated = (fake: FakeSd) => fake.calls.filter((c) => c.path === '/sdapi/v1/txt2img').length

beforeAll(async () => {
  fakes = await Promise.all([startFakeSdWebui(), startFakeSdWebui(), startFakeSdWebui()])
})
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close().catch(() => undefined)))
})

async function pool(name: string) {
  return Promise.all(fakes.map((fake, i) => createModel({ name: `${name}-${i}`, backend: 'sd-webui', endpoint: fake.url, pool: name, concurrency: 1, sort: i })))
}

async function submitMany(modelId: string, n: number) {
  const user = await createUser({ points: 1000 })
  await db().siteConfig.upsert({ where: { name: 'TASK_MAX_PENDING_PER_USER' }, create: { name: 'TASK_MAX_PENDING_PER_USER', value: '50' }, update: { value: '50' } })
  ;(await import('@/lib/site-config/store')).invalidateConfigCache()
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'SD_TEXT2IMG', modelId, params: { prompt: `pool ${i}`, width: 64, height: 64 } } })
    expect(res.status).toBe(200)
    ids.push(res.body.data.id)
  }
  return { user, ids }
}

describe('a pool of three SD WebUI instances', () => {
  it('routes each task to the least busy instance: three claims land on three instances', async () => {
    const models = await pool('spread')
    await submitMany(models[0].id, 3)
    const claims = await Promise.all([claimTask('w1'), claimTask('w2'), claimTask('w3')])
    const placed = await db().task.findMany({ where: { id: { in: claims.map((c) => c!.id) } }, select: { modelId: true } })
    expect(new Set(placed.map((p) => p.modelId))).toEqual(new Set(models.map((m) => m.id)))
    await db().task.updateMany({ where: { id: { in: claims.map((c) => c!.id) } }, data: { stage: 'QUEUED', leaseOwner: null } })
    await drainQueue()
  })

  it('one instance failing every generation: all tasks succeed, and after its first failure nothing runs there', async () => {
    fakes[2].set('failing')
    const models = await pool('failover')
    const before = generated(fakes[2])
    const { user, ids } = await submitMany(models[0].id, 9)
    // Three workers at a time, until the queue is empty.
    await Promise.all([drainQueue('p1'), drainQueue('p2'), drainQueue('p3')])
    const tasks = await db().task.findMany({ where: { id: { in: ids } } })
    expect(tasks.every((t) => t.status === 'SUCCESS')).toBe(true)
    expect(tasks.every((t) => t.modelId !== models[2].id)).toBe(true)
    expect(generated(fakes[2]) - before).toBeLessThanOrEqual(1)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: models[2].id } })).toMatchObject({ healthy: false })
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(1000 - 9 * 10)
    await expectLedgerInvariants()
    fakes[2].set('normal')
  })

  it('an instance that stops answering is taken out by the health check and brought back when it answers', async () => {
    const models = await pool('health')
    const down = fakes[1]
    await down.close()
    await checkBackends()
    await checkBackends()
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: models[1].id } })).toMatchObject({ healthy: false, healthFailures: 2 })
    const before = [generated(fakes[0]), generated(fakes[2])]
    const { ids } = await submitMany(models[1].id, 6)
    await Promise.all([drainQueue('h1'), drainQueue('h2')])
    const tasks = await db().task.findMany({ where: { id: { in: ids } } })
    expect(tasks.every((t) => t.status === 'SUCCESS' && t.modelId !== models[1].id)).toBe(true)
    expect(generated(fakes[0]) + generated(fakes[2]) - before[0] - before[1]).toBe(6)

    fakes[1] = await startFakeSdWebui()
    await db().aiModel.update({ where: { id: models[1].id }, data: { endpoint: fakes[1].url } })
    await checkBackends()
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: models[1].id } })).toMatchObject({ healthy: true, healthFailures: 0, healthMessage: null })
  })

  it('a backend out of routing after a failed task waits out its cooldown before a check brings it back', async () => {
    const [model] = await pool('cooldown')
    const { recordBackendFailure } = await import('@/lib/models/backend-health')
    await recordBackendFailure(model.id, 'a-task', 'UPSTREAM_FAILED: HTTP 500')
    await checkBackends()
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(false)
    await db().aiModel.update({ where: { id: model.id }, data: { healthCheckedAt: new Date(Date.now() - 61_000) } })
    await checkBackends()
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(true)
  })
})

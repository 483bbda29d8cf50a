import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import * as modelsRoute from '@/app/api/admin/models/route'
import { prismaModelRows } from '../helpers/model-rows'
import { PRUNE_BACKEND_ATTEMPTS_JOB, pruneBackendAttempts } from '@/lib/models/backend-attempts'
import { checkBackends, recordAttempt, recordBackendFailure } from '@/lib/models/backend-health'
import { claimOnBackend, claimTask, type ClaimedTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { backgroundJobs } from '@/lib/worker/jobs'
import { localWorker, setLocalWorker } from '@/lib/signals/local-worker'
import { RUN_TASKS_JOB } from '@/lib/signals/queue-signal'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { at } from '../helpers/present'
import { createModel, drainQueue } from '../helpers/tasks'

let fakes: FakeSd[] = []
const fake = (i: number) => at(fakes, i)
const generated = (fake: FakeSd) => fake.calls.filter((c) => c.path === '/sdapi/v1/txt2img').length

beforeAll(async () => {
  fakes = await Promise.all([startFakeSdWebui(), startFakeSdWebui(), startFakeSdWebui()])
})
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close().catch(() => undefined)))
})

/** One model per fake instance, all in pool `name`. */
async function pool(name: string, concurrency = 1) {
  const instance = (i: number) => createModel({ name: `${name}-${i}`, backend: 'sd-webui', endpoint: fake(i).url, pool: name, concurrency, sort: i })
  return Promise.all([instance(0), instance(1), instance(2)])
}

type Row = { id: string; queued: number; poolQueued: number | null; running: number; recentAttempts: number; recentFailures: number; healthy: boolean }

/** As if their last health check were a while ago, so the next one is due. */
async function checkedMinutesAgo(models: { id: string }[]) {
  await db().aiModel.updateMany({ where: { id: { in: models.map((m) => m.id) } }, data: { healthCheckedAt: new Date(Date.now() - 5 * 60_000) } })
}

/** /admin/model_mana's rows, as an admin reads them (the whole answer as the Prisma query made it). */
async function consoleRows(models: { id: string }[]): Promise<Row[]> {
  const admin = await createUser({ role: 'ADMIN' })
  const res = await callRoute<Row[]>(modelsRoute.GET, { token: admin.token })
  expect(res.status).toBe(200)
  expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(await prismaModelRows()))
  return models.map((m) => res.body.data.find((r) => r.id === m.id)!)
}

const modelOf = async (claimed: ClaimedTask | null) => (await db().task.findUniqueOrThrow({ where: { id: claimed!.id } })).modelId
/** Claims by workers p1, p2 ... one task each, in turn; then runs them all at once. */
async function claimInTurn(n: number, prefix: string) {
  const claimed: ClaimedTask[] = []
  for (let i = 1; i <= n; i++) claimed.push((await claimTask(`${prefix}${i}`))!)
  return { claimed, run: () => Promise.all(claimed.map((c, i) => runTask(c, `${prefix}${i + 1}`, new AbortController().signal))) }
}

/** A claim by instance `i` of the pool as its worker makes it; that instance being out of routing fails the test. */
async function claimOnInstance(models: { id: string }[], pool: string, i: number, workerId: string) {
  const claimed = await claimOnBackend({ id: at(models, i).id, pool }, workerId)
  if (claimed === 'locked') throw new Error(`instance ${i} is out of routing`)
  return claimed
}

async function submitMany(modelId: string, n: number) {
  const user = await createUser({ points: 1000 })
  await db().siteConfig.upsert({
    where: { name: 'TASK_MAX_PENDING_PER_USER' },
    create: { name: 'TASK_MAX_PENDING_PER_USER', value: '50' },
    update: { value: '50' },
  })
  ;(await import('@/lib/site-config/store')).invalidateConfigCache()
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId, params: { prompt: `pool ${i}`, width: 64, height: 64 } },
    })
    expect(res.status).toBe(200)
    ids.push(res.body.data.id)
  }
  return { user, ids }
}

describe('a pool of three SD WebUI instances', () => {
  it('routes each task to the least busy instance: with two tasks running on instance 0 (3 slots each), the next claims go to the idle ones', async () => {
    const models = await pool('spread', 3)
    const { ids } = await submitMany(models[0].id, 5)
    // Instance 0 already runs two of them (another worker holds them); it still has a free slot.
    await db().task.updateMany({
      where: { id: { in: ids.slice(0, 2) } },
      data: { modelId: models[0].id, stage: 'RUNNING', leaseOwner: 'elsewhere', leaseExpiresAt: new Date(Date.now() + 60_000) },
    })
    const first = await claimTask('w1')
    const second = await claimTask('w2')
    expect(new Set([await modelOf(first), await modelOf(second)])).toEqual(new Set([models[1].id, models[2].id]))
    // Now 2 / 1 / 1 running: still not instance 0.
    expect(await modelOf(await claimTask('w3'))).not.toBe(models[0].id)
    await db().task.updateMany({ where: { id: { in: ids } }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
  })

  it('one instance failing every generation for several users: every task succeeds elsewhere, and the instance leaves routing', async () => {
    fake(2).set('failing')
    try {
      const models = await pool('failover')
      const before = generated(fake(2))
      // Nine users, one task each: whichever tasks fail on the broken instance, they are
      // different users' (with three users' batches, the fairest claim order could hand it
      // one user's three tasks, which by design is not enough to take it out).
      const batches: Awaited<ReturnType<typeof submitMany>>[] = []
      for (let i = 0; i < 9; i++) batches.push(await submitMany(models[0].id, 1))
      const ids = batches.flatMap((b) => b.ids)
      // The pool's queue is the pool's, not the instance the user picked.
      expect(await consoleRows(models)).toMatchObject([0, 1, 2].map(() => ({ queued: 0, poolQueued: 9, running: 0 })))
      // The first three claims spread over the three instances (least busy first), the failing one included.
      const first = await claimInTurn(3, 'p')
      expect(await consoleRows(models)).toMatchObject([0, 1, 2].map(() => ({ queued: 0, poolQueued: 6, running: 1 })))
      await first.run()
      // Three workers at a time; a task that failed is tried again seconds later (made due here).
      for (let round = 0; round < 4; round++) {
        await Promise.all([drainQueue('p1'), drainQueue('p2'), drainQueue('p3')])
        await db().task.updateMany({ where: { id: { in: ids }, status: 'PENDING' }, data: { runAfter: new Date() } })
      }
      const tasks = await db().task.findMany({ where: { id: { in: ids } } })
      expect(tasks.every((t) => t.status === 'SUCCESS' && t.modelId !== models[2].id)).toBe(true)
      // Failed tasks of three users took it out; one user's would not have.
      const failedThere = generated(fake(2)) - before
      expect(failedThere).toBeGreaterThanOrEqual(3)
      expect(failedThere).toBeLessThanOrEqual(6)
      const failing = at(await consoleRows(models), 2)
      expect(failing).toMatchObject({ healthy: false, recentAttempts: failedThere, recentFailures: failedThere, running: 0, poolQueued: 0 })
      for (const { user } of batches) expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(1000 - 10)
      await expectLedgerInvariants()
    } finally {
      fake(2).set('normal')
    }
  })

  it('a task that failed on one instance is tried again on another while the pool has one, and on the same one when it is the last', async () => {
    fake(0).set('failing')
    try {
      const models = await pool('retry-elsewhere')
      const claimOn = (i: number, workerId: string) => claimOnInstance(models, 'retry-elsewhere', i, workerId)
      const dueNow = (id: string) => db().task.update({ where: { id }, data: { runAfter: new Date() } })
      const { ids } = await submitMany(at(models, 0).id, 1)
      const id = at(ids, 0)
      const first = (await claimOn(0, 'r1'))!
      await runTask(first, 'r1', new AbortController().signal)
      expect(await db().task.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'PENDING', stage: 'QUEUED', attempts: 1, modelId: at(models, 0).id })
      expect(await db().aiModel.findUniqueOrThrow({ where: { id: at(models, 0).id } })).toMatchObject({ healthy: true })
      await dueNow(id)
      // Instance 0 is free and still in routing, but the retry waits for another instance.
      expect(await claimOn(0, 'r2')).toBeNull()
      const again = (await claimOn(1, 'r2'))!
      expect(again.id).toBe(id)
      // Instance 1 fails it too; with 1 and 2 out of routing, 0 is the pool's last and may take it.
      await db().task.update({ where: { id }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null, modelId: at(models, 0).id } })
      await db().aiModel.updateMany({ where: { id: { in: [at(models, 1).id, at(models, 2).id] } }, data: { healthy: false } })
      expect((await claimOn(0, 'r3'))?.id).toBe(id)
      await db().task.update({ where: { id }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    } finally {
      fake(0).set('normal')
    }
    await drainQueue()
  })

  it('a task to probe waits for the instance its job was sent to: elsewhere only once that one leaves the pool, refunded once if it stays out', async () => {
    const models = await pool('probe-home')
    const claimOn = (i: number, workerId: string) => claimOnInstance(models, 'probe-home', i, workerId)
    // Each as if its job had been sent to instance 1 and its worker had died there.
    const sentTo1 = async () => {
      const { user, ids } = await submitMany(at(models, 0).id, 1)
      const id = at(ids, 0)
      await db().task.update({ where: { id }, data: { modelId: at(models, 1).id, attempts: 1, probeBeforeSubmit: true, upstreamId: 'sent-to-1' } })
      return { user, id }
    }
    const requeue = (id: string) => db().task.update({ where: { id }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null, attempts: 1 } })

    const waiting = await sentTo1()
    expect(await claimOn(0, 'h1')).toBeNull()
    expect(await claimOn(2, 'h1')).toBeNull()
    expect((await claimOn(1, 'h1'))?.id).toBe(waiting.id)
    await requeue(waiting.id)

    // Instance 1 out of routing for longer than the outage limit: the task fails, refunded once,
    // though instances 0 and 2 are fine (they never had the job).
    const dayAgo = new Date(Date.now() - 24 * 3600_000)
    await db().aiModel.update({ where: { id: at(models, 1).id }, data: { healthy: false, outSince: dayAgo } })
    await db().task.update({ where: { id: waiting.id }, data: { createdAt: dayAgo } })
    await sweepTasks()
    expect(await db().task.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_DOWN' })
    expect((await db().user.findUniqueOrThrow({ where: { id: waiting.user.id } })).points).toBe(1000)

    // Taken out of the pool in the console, instance 1's job is gone with it: another instance takes the
    // task, and the outage sweep leaves it to them.
    await db().aiModel.update({ where: { id: at(models, 1).id }, data: { healthy: true, outSince: null, pool: null } })
    const moved = await sentTo1()
    await db().task.update({ where: { id: moved.id }, data: { createdAt: dayAgo } })
    await sweepTasks()
    expect((await db().task.findUniqueOrThrow({ where: { id: moved.id } })).status).toBe('PENDING')
    expect((await claimOn(0, 'h2'))?.id).toBe(moved.id)
    await requeue(moved.id)
    await db().task.update({ where: { id: moved.id }, data: { probeBeforeSubmit: false, upstreamId: null, attempts: 0 } })
    await drainQueue()
    // Switched off, likewise.
    await db().aiModel.update({ where: { id: at(models, 1).id }, data: { pool: 'probe-home', enabled: false } })
    const orphan = await sentTo1()
    expect((await claimOn(0, 'h3'))?.id).toBe(orphan.id)
    await requeue(orphan.id)
    await db().task.update({ where: { id: orphan.id }, data: { probeBeforeSubmit: false, upstreamId: null, attempts: 0 } })
    await drainQueue()
    await expectLedgerInvariants()
  })

  it('an instance that stops answering is taken out by the health check and brought back when it answers', async () => {
    const models = await pool('health')
    const down = fake(1)
    await down.close()
    const wakes: string[] = []
    const previous = localWorker()
    setLocalWorker({ wake: (name) => wakes.push(name), stop: async () => undefined })
    await checkBackends()
    wakes.length = 0 // the first check may bring back instances earlier tests took out
    // A second worker's check a moment later is the same check: one failure, still in routing.
    await checkBackends()
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: models[1].id } })).toMatchObject({ healthy: true, healthFailures: 1 })
    expect(wakes).toEqual([])
    await checkedMinutesAgo(models)
    await checkBackends()
    if (previous) setLocalWorker(previous)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: models[1].id } })).toMatchObject({ healthy: false, healthFailures: 2 })
    // Leaving the pool wakes idle workers: a retry waiting for another member may run on this one's peers now.
    expect(wakes).toEqual([RUN_TASKS_JOB])
    const before = generated(fake(0)) + generated(fake(2))
    const { ids } = await submitMany(models[1].id, 6)
    await Promise.all([drainQueue('h1'), drainQueue('h2')])
    const tasks = await db().task.findMany({ where: { id: { in: ids } } })
    expect(tasks.every((t) => t.status === 'SUCCESS' && t.modelId !== models[1].id)).toBe(true)
    expect(generated(fake(0)) + generated(fake(2)) - before).toBe(6)

    fakes[1] = await startFakeSdWebui()
    await db().aiModel.update({ where: { id: models[1].id }, data: { endpoint: fake(1).url } })
    await checkedMinutesAgo(models)
    await checkBackends()
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: models[1].id } })).toMatchObject({ healthy: true, healthFailures: 0, healthMessage: null })
  })

  it('a task failing on an instance while its health check waits for an answer keeps it out: the answer does not undo the failure', async () => {
    const [model] = await pool('mid-check')
    await checkedMinutesAgo([model])
    fake(0).set({ listDelayMs: 400 })
    try {
      const asked = fake(0).calls.length
      const check = checkBackends()
      // The check has claimed the instance and waits for its answer.
      await expect
        .poll(
          () =>
            fake(0)
              .calls.slice(asked)
              .some((c) => c.path === '/sdapi/v1/sd-models'),
          { interval: 10 },
        )
        .toBe(true)
      await recordBackendFailure(model.id, 'mid-check-task', 'UPSTREAM_FAILED: HTTP 500')
      await check
      expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({
        healthy: false,
        healthMessage: '任务失败：UPSTREAM_FAILED: HTTP 500',
      })
    } finally {
      fake(0).set({ listDelayMs: 0 })
    }
  })

  it('a backend that answers checks but keeps failing tasks stays out longer after each failure since its last success', async () => {
    const [model] = await pool('relapse')
    const outFor = async (ms: number) => {
      await db().aiModel.update({ where: { id: model.id }, data: { healthCheckedAt: new Date(Date.now() - ms) } })
      await checkBackends()
      return !(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy
    }
    for (let i = 0; i < 3; i++) await recordBackendFailure(model.id, `relapse-${i}`, 'UPSTREAM_FAILED: HTTP 500')
    // Third failure in a row: 4 minutes, not 1.
    expect(await outFor(61_000)).toBe(true)
    expect(await outFor(3.5 * 60_000)).toBe(true)
    expect(await outFor(4 * 60_000 + 1_000)).toBe(false)
    // A success starts the count again: the next failure costs a minute.
    await recordAttempt(model.id, 'relapse-ok', true)
    await recordBackendFailure(model.id, 'relapse-3', 'UPSTREAM_FAILED: HTTP 500')
    expect(await outFor(61_000)).toBe(false)
  })

  it('attempts older than a week are pruned by a worker job', async () => {
    const [model] = await pool('prune')
    const day = 24 * 3600_000
    await db().backendAttempt.createMany({
      data: [8, 7.01, 6.9].map((days, i) => ({ modelId: model.id, taskId: `prune-${i}`, ok: false, createdAt: new Date(Date.now() - days * day) })),
    })
    expect(await pruneBackendAttempts()).toBe(2)
    expect(await db().backendAttempt.findMany({ where: { modelId: model.id }, select: { taskId: true } })).toEqual([{ taskId: 'prune-2' }])
    expect(backgroundJobs().find((j) => j.name === PRUNE_BACKEND_ATTEMPTS_JOB)).toBeDefined()
  })

  it('a backend out of routing after a failed task waits out its cooldown before a check brings it back', async () => {
    const [model] = await pool('cooldown')
    await recordBackendFailure(model.id, 'a-task', 'UPSTREAM_FAILED: HTTP 500')
    await checkBackends()
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(false)
    await db().aiModel.update({ where: { id: model.id }, data: { healthCheckedAt: new Date(Date.now() - 61_000) } })
    await checkBackends()
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(true)
  })
})

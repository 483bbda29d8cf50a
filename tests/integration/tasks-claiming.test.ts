import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as cancelRoute from '@/app/api/tasks/[id]/cancel/route'
import * as modelRoute from '@/app/api/admin/models/[id]/route'
import { db } from '@/lib/db'
import { JOB_CHANNEL } from '@/lib/signals/job-signal'
import { CANCEL_SIGNAL_PREFIX } from '@/lib/signals/task-cancel'
import { checkBackends } from '@/lib/models/backend-health'
import { claimNext, claimOnBackend, claimTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, drainQueue } from '../helpers/tasks'
import { at } from '../helpers/present'

let sd: FakeSd
beforeAll(async () => {
  sd = await startFakeSdWebui()
})
afterAll(async () => {
  await sd.close()
})

async function submitOn(modelId: string, n: number, points = 1000) {
  const user = await createUser({ points })
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId, params: { prompt: `claim ${i}`, width: 64, height: 64 } },
    })
    expect(res.status).toBe(200)
    ids.push(res.body.data.id)
  }
  return { user, ids }
}

const runningOn = (modelId: string) => db().task.count({ where: { modelId, status: 'PENDING', stage: { in: ['SUBMITTING', 'RUNNING'] } } })

/** The connection string of the test database, for a second session stepped by hand. */
const databaseUrl = () => process.env.DATABASE_URL!

describe('backend slots under concurrent claims', () => {
  it('a claimer that read the backend as free before a rival filled it does not overfill it (the count is taken again under the lock)', async () => {
    const model = await createModel({ name: 'stale-view', concurrency: 1 })
    const { ids } = await submitOn(model.id, 2)
    // What a claimer saw a moment ago: this backend, with a free slot. Then a rival claims and commits.
    const staleView = { id: model.id, pool: null }
    expect((await claimTask('rival'))?.id).toBe(ids[0])
    // The late claimer takes the backend's lock now: the slot is gone, so it takes nothing.
    expect(await claimOnBackend(staleView, 'late')).toBeNull()
    expect(await runningOn(model.id)).toBe(1)
    await db().task.updateMany({ where: { id: { in: ids } }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
  })

  it('two transactions stepped by hand: a claim waiting for the backend’s row while a rival fills the slot gets the row after the rival commits, and takes nothing', async () => {
    const model = await createModel({ name: 'stepped', concurrency: 1 })
    const { ids } = await submitOn(model.id, 2)
    const rival = new pg.Client({ connectionString: databaseUrl() })
    await rival.connect()
    try {
      // The rival locks the backend's row and claims the first task, not yet committed.
      await rival.query('BEGIN')
      await rival.query('SELECT 1 FROM "AiModel" WHERE "id" = $1 FOR UPDATE', [model.id])
      await rival.query(
        `UPDATE "Task" SET "stage" = 'SUBMITTING', "leaseOwner" = 'rival', "leaseExpiresAt" = now() + interval '1 minute', "attempts" = 1 WHERE "id" = $1`,
        [ids[0]],
      )
      // The late claimer saw the backend free (the rival's claim is invisible to it) and now waits for the row.
      const late = claimNext('late')
      await new Promise((r) => setTimeout(r, 300))
      await rival.query('COMMIT')
      // It gets the row only now, when the slot is taken: it must count again and take nothing.
      expect(await late).toMatchObject({ task: null, contended: false })
      expect(await runningOn(model.id)).toBe(1)
      expect((await db().task.findUniqueOrThrow({ where: { id: ids[1] } })).stage).toBe('QUEUED')

      // A rival that holds the row for longer than the claim waits: the claim gives up and says so (look again soon).
      await db().task.update({ where: { id: ids[0] }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
      await rival.query('BEGIN')
      await rival.query('SELECT 1 FROM "AiModel" WHERE "id" = $1 FOR UPDATE', [model.id])
      expect(await claimNext('late')).toMatchObject({ task: null, contended: true })
      await rival.query('ROLLBACK')
      expect(await claimNext('late')).toMatchObject({ task: { id: ids[0] }, contended: false })
    } finally {
      await rival.end()
    }
    await db().task.updateMany({ where: { id: { in: ids } }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
  })

  it('a cancel racing a claim that commits first sees the claim under its lock, and tells the worker to stop the run', async () => {
    const model = await createModel({ name: 'cancel-race', concurrency: 1 })
    const { user, ids } = await submitOn(model.id, 1)
    const id = at(ids, 0)
    const [rival, listener] = [new pg.Client({ connectionString: databaseUrl() }), new pg.Client({ connectionString: databaseUrl() })]
    await Promise.all([rival.connect(), listener.connect()])
    const signals: string[] = []
    listener.on('notification', (n) => signals.push(n.payload ?? ''))
    await listener.query(`LISTEN ${JOB_CHANNEL}`)
    try {
      await rival.query('BEGIN')
      await rival.query(`UPDATE "Task" SET "stage" = 'SUBMITTING', "leaseOwner" = 'rival', "leaseExpiresAt" = now() + interval '1 minute' WHERE "id" = $1`, [
        id,
      ])
      // The cancel reads the task as queued (the claim is not committed), then waits for its row.
      const cancel = callRoute(cancelRoute.POST, { token: user.token, params: { id } })
      await new Promise((r) => setTimeout(r, 300))
      await rival.query('COMMIT')
      expect((await cancel).status).toBe(200)
      await expect.poll(() => signals).toContain(`${CANCEL_SIGNAL_PREFIX}${id}`)
    } finally {
      await Promise.all([rival.end(), listener.end()])
    }
  })

  it('within a backend the user with the fewest running tasks goes first, then the oldest task', async () => {
    const model = await createModel({ name: 'fair', concurrency: 3 })
    const heavy = await submitOn(model.id, 3)
    const light = await submitOn(model.id, 1)
    const order = [await claimTask('fair-1'), await claimTask('fair-2'), await claimTask('fair-3')].map((c) => c?.id)
    // heavy's oldest (nobody runs anything yet), then light's (heavy now runs one), then heavy's second.
    expect(order).toEqual([heavy.ids[0], light.ids[0], heavy.ids[1]])
    await db().task.updateMany({ where: { modelId: model.id }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
  })

  it('many workers against one concurrency-1 SD WebUI: it never gets two jobs at once, and every task succeeds', async () => {
    sd.set({ behaviour: 'normal', stepMs: 1 })
    const model = await createModel({ name: 'contended', backend: 'sd-webui', endpoint: sd.url, concurrency: 1, options: { progressIntervalMs: 60_000 } })
    await db().siteConfig.upsert({
      where: { name: 'TASK_MAX_PENDING_PER_USER' },
      create: { name: 'TASK_MAX_PENDING_PER_USER', value: '50' },
      update: { value: '50' },
    })
    ;(await import('@/lib/site-config/store')).invalidateConfigCache()
    const { ids } = await submitOn(model.id, 24)
    const peakBefore = sd.peakGenerations()
    expect(peakBefore).toBeLessThanOrEqual(1)
    let peakRunning = 0
    const worker = async (n: number) => {
      for (;;) {
        const outcome = await claimNext(`many-${n}`)
        if (!outcome.task) {
          if (!outcome.contended && (await db().task.count({ where: { id: { in: ids }, status: 'PENDING' } })) === 0) return
          await new Promise((r) => setTimeout(r, 5))
          continue
        }
        peakRunning = Math.max(peakRunning, await runningOn(model.id))
        await runTask(outcome.task, `many-${n}`, new AbortController().signal)
      }
    }
    await Promise.all(Array.from({ length: 12 }, (_, n) => worker(n)))
    expect(await db().task.count({ where: { id: { in: ids }, status: 'SUCCESS' } })).toBe(24)
    expect(peakRunning).toBe(1)
    expect(sd.peakGenerations()).toBe(1)
    await db().siteConfig.delete({ where: { name: 'TASK_MAX_PENDING_PER_USER' } })
    ;(await import('@/lib/site-config/store')).invalidateConfigCache()
  })
})

describe('waking instead of polling', () => {
  it('a claim that finds nothing due says when the next backoff ends (the runner sleeps until then, not polling)', async () => {
    const model = await createModel({ name: 'backoff-due', concurrency: 1 })
    const { ids } = await submitOn(model.id, 1)
    const runAfter = new Date(Date.now() + 5_000)
    await db().task.update({ where: { id: ids[0] }, data: { runAfter } })
    const outcome = await claimNext('early')
    expect(outcome).toEqual({ task: null, contended: false, nextDueAt: runAfter })
    await db().task.update({ where: { id: ids[0] }, data: { runAfter: new Date() } })
    expect((await claimNext('on-time')).task?.id).toBe(ids[0])
    await db().task.update({ where: { id: ids[0] }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
  })

  /** Counts the claim queries (the look for a backend with a free slot) this process sends. */
  function countClaimQueries() {
    let claims = 0
    const original = pg.Client.prototype.query
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text
      if (text?.includes('FROM "AiModel" m')) claims++
      return (original as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof original
    return { count: () => claims, restore: () => void (pg.Client.prototype.query = original) }
  }

  it('a task waiting for a full backend is not polled, and runs as soon as the running task ends (the ending is announced)', async () => {
    const model = await createModel({ name: 'full-then-free', concurrency: 1 })
    const { user, ids } = await submitOn(model.id, 2)
    expect((await claimTask('elsewhere'))?.id).toBe(ids[0])
    const { startWorker } = await import('@/lib/worker/start-worker')
    const worker = startWorker()
    try {
      await new Promise((r) => setTimeout(r, 1_000))
      const claims = countClaimQueries()
      await new Promise((r) => setTimeout(r, 1_500))
      claims.restore()
      // Blocked by capacity: it sleeps (the old runner looked every 250 ms).
      expect(claims.count()).toBe(0)
      expect((await db().task.findUniqueOrThrow({ where: { id: ids[1] } })).stage).toBe('QUEUED')
      // The running task ends (here: its owner cancels it): the queued one runs at once, not at the next idle check (60 s).
      expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id: at(ids, 0) } })).status).toBe(200)
      await expect.poll(async () => (await db().task.findUniqueOrThrow({ where: { id: ids[1] } })).status, { timeout: 5_000 }).toBe('SUCCESS')
    } finally {
      await worker.stop()
    }
  })

  it('a model given more slots in the console: its queued task runs at once (saving a model is announced)', async () => {
    const model = await createModel({ name: 'more-slots', concurrency: 1 })
    const { ids } = await submitOn(model.id, 2)
    expect((await claimTask('elsewhere'))?.id).toBe(ids[0])
    const admin = await createUser({ role: 'ADMIN' })
    const { startWorker } = await import('@/lib/worker/start-worker')
    const worker = startWorker()
    try {
      await new Promise((r) => setTimeout(r, 1_500))
      expect((await db().task.findUniqueOrThrow({ where: { id: ids[1] } })).stage).toBe('QUEUED')
      const saved = await callRoute(modelRoute.PATCH, { method: 'PATCH', token: admin.token, params: { id: model.id }, body: { concurrency: 2 } })
      expect(saved.status).toBe(200)
      await expect.poll(async () => (await db().task.findUniqueOrThrow({ where: { id: ids[1] } })).status, { timeout: 5_000 }).toBe('SUCCESS')
    } finally {
      await worker.stop()
    }
  })

  it('a lone backend that comes back: the health check announces it and its queued task runs at once', async () => {
    const model = await createModel({ name: 'comes-back', concurrency: 1 })
    const { ids } = await submitOn(model.id, 1)
    // Out after a failed task, cooling down: the worker's own first health check leaves it out.
    await db().aiModel.update({
      where: { id: model.id },
      data: { healthy: false, healthFailures: 1, healthMessage: '任务失败：UPSTREAM_FAILED: HTTP 500', healthCheckedAt: new Date() },
    })
    const { startWorker } = await import('@/lib/worker/start-worker')
    const worker = startWorker()
    try {
      await new Promise((r) => setTimeout(r, 1_500))
      expect((await db().task.findUniqueOrThrow({ where: { id: ids[0] } })).stage).toBe('QUEUED')
      // The cooldown has passed; the next check finds it answering.
      await db().aiModel.update({ where: { id: model.id }, data: { healthCheckedAt: new Date(Date.now() - 30 * 60_000) } })
      await checkBackends()
      expect((await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).healthy).toBe(true)
      await expect.poll(async () => (await db().task.findUniqueOrThrow({ where: { id: ids[0] } })).status, { timeout: 5_000 }).toBe('SUCCESS')
    } finally {
      await worker.stop()
    }
  })
})

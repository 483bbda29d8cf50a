// Queue faults: every worker killed with -9 mid-task, a backend that always answers 500,
// four workers over 1,000 quick tasks, and a backend whose health check starts failing
// while tasks wait for it. Each ends with every task SUCCESS or FAIL, one charge each and
// one refund for each FAIL. The e2e worker is frozen (SIGSTOP) for the spec's length: the
// spec runs its own workers, started as `npm run worker` is, with the e2e worker's
// environment and a short WORKER_LEASE_SECONDS / BACKEND_CHECK_SECONDS (README.md).
import type { APIRequestContext } from '@playwright/test'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { asAdmin, uniqueName } from '../e2e/support/session'
import { pauseWorker, resumeWorker } from '../e2e/support/worker'
import { expect, figure, test } from './support/fixtures'
import {
  closeSql,
  createSdModel,
  disableModel,
  e2eWorkerEnv,
  killWorkers,
  setSetting,
  sql,
  startWorkers,
  submit,
  tasksOf,
  userWithPoints,
  type TaskRow,
  type WorkerProcess,
} from './support/queue'

const LEASE_SECONDS = 6
const CHECK_SECONDS = 3
/** BACKEND_OUTAGE_REFUND_SECONDS for the spec: the setting's minimum. */
const OUTAGE_SECONDS = 60

test.describe.configure({ mode: 'serial' })

let admin: Record<string, string>
let workerEnv: NodeJS.ProcessEnv
const workers: WorkerProcess[] = []
const fakes: FakeSd[] = []
const models: string[] = []
const restore: { name: string; value: number }[] = []

async function spawnWorkers(count: number, slots: number): Promise<WorkerProcess[]> {
  const started = await startWorkers(count, {
    ...workerEnv,
    WORKER_TASK_SLOTS: String(slots),
    WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
    BACKEND_CHECK_SECONDS: String(CHECK_SECONDS),
    WORKER_DRAIN_SECONDS: '5',
    // The machine's PostgreSQL is shared: 4 connections each is plenty for 8 slots.
    DATABASE_POOL_SIZE: '4',
  })
  workers.push(...started)
  return started
}

async function fake(options: Parameters<typeof startFakeSdWebui>[0]): Promise<FakeSd> {
  const started = await startFakeSdWebui(options)
  fakes.push(started)
  return started
}

async function model(request: APIRequestContext, data: { endpoint: string; concurrency: number; pool?: string }): Promise<string> {
  const id = await createSdModel(request, admin, { name: uniqueName('qf'), ...data })
  models.push(id)
  return id
}

async function setSettingForSpec(request: APIRequestContext, name: string, value: number, fallback: number) {
  restore.push({ name, value: (await setSetting(request, admin, name, value)) ?? fallback })
}

/** The generate requests a fake got, by task id (force_task_id). */
function requestsPerTask(...backends: FakeSd[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const backend of backends)
    for (const body of backend.bodies('/sdapi/v1/txt2img')) counts.set(String(body.force_task_id), (counts.get(String(body.force_task_id)) ?? 0) + 1)
  return counts
}

/** Every task ended, with one charge, a refund exactly when it failed, and images exactly when it succeeded. */
function expectSettledOnce(tasks: TaskRow[]) {
  const wrong = tasks.filter(
    (t) =>
      !(t.status === 'SUCCESS' || t.status === 'FAIL') ||
      t.charges !== 1 ||
      t.refunds !== (t.status === 'FAIL' ? 1 : 0) ||
      (t.status === 'SUCCESS') !== t.results > 0,
  )
  expect(wrong, 'tasks not settled exactly once').toEqual([])
}

const pending = async (modelIds: string[]) => (await tasksOf(modelIds)).filter((t) => t.status === 'PENDING').length

test.beforeAll(async ({ request }) => {
  admin = await asAdmin(request)
  workerEnv = e2eWorkerEnv()
  // Only this spec's workers take tasks while it runs; the e2e worker picks up where it was afterwards.
  await pauseWorker()
  await setSettingForSpec(request, 'TASK_MAX_PENDING_PER_USER', 100, 4)
  await setSettingForSpec(request, 'BACKEND_OUTAGE_REFUND_SECONDS', OUTAGE_SECONDS, 120)
})

test.afterAll(async ({ request }) => {
  await killWorkers(workers, 'SIGTERM')
  await resumeWorker()
  for (const id of models) await disableModel(request, admin, id)
  for (const { name, value } of restore) await setSetting(request, admin, name, value)
  await Promise.all(fakes.map((f) => f.close()))
  // Left as found: the e2e worker runs a task on the default model (the demo renderer) again.
  const user = await userWithPoints(request, admin, 10)
  const res = await request.post('/api/tasks', { headers: user.auth, data: { type: 'SD_TEXT2IMG', params: { prompt: 'after the queue faults', count: 1 } } })
  expect(res.ok(), await res.text()).toBeTruthy()
  const id = (await res.json()).data.id as string
  await expect
    .poll(async () => (await sql<{ status: string }>(`SELECT "status" FROM "Task" WHERE "id" = $1`, [id]))[0]!.status, { timeout: 30_000 })
    .toBe('SUCCESS')
  await closeSql()
})

test('every worker killed with -9 mid-task, then restarted: each task SUCCESS or FAIL, one refund per FAIL', async ({ request }) => {
  test.setTimeout(180_000)
  // 3 s per image, one at a time, like a real SD WebUI.
  const sd = await fake({ behaviour: 'slow', stepMs: 100 })
  const modelId = await model(request, { endpoint: sd.url, concurrency: 4 })
  const users = [await userWithPoints(request, admin, 10), await userWithPoints(request, admin, 10)]
  const ids: string[] = []
  for (let i = 0; i < 8; i++) {
    const res = await submit(request, users[i % 2]!.auth, modelId, `kill ${i}`, 30)
    expect(res.ok(), await res.text()).toBeTruthy()
    ids.push((await res.json()).data.id)
  }

  const first = await spawnWorkers(2, 2)
  await expect.poll(() => sd.bodies('/sdapi/v1/txt2img').length, { timeout: 60_000 }).toBeGreaterThanOrEqual(4)
  await killWorkers(first, 'SIGKILL')
  const killedAt = Date.now()
  const interrupted = (await tasksOf([modelId])).filter((t) => t.status === 'PENDING' && t.stage !== 'QUEUED').map((t) => t.id)
  expect(interrupted.length, 'tasks running when the workers were killed').toBeGreaterThan(0)
  const atBackend = new Set(requestsPerTask(sd).keys())

  await spawnWorkers(2, 2)
  const backAt = Date.now()
  // How long any task stays SUBMITTING/RUNNING after its lease ran out (counted from when
  // the new workers were up, if later: nobody can sweep before), sampled while the queue recovers.
  let pastLeaseMs = 0
  let interruptedSettledAt = 0
  await expect
    .poll(
      async () => {
        const rows = await tasksOf([modelId])
        const now = Date.now()
        for (const t of rows)
          if (t.status === 'PENDING' && t.stage !== 'QUEUED' && t.leaseExpiresAt)
            pastLeaseMs = Math.max(pastLeaseMs, now - Math.max(backAt, t.leaseExpiresAt.getTime()))
        if (!interruptedSettledAt && rows.every((t) => !interrupted.includes(t.id) || t.status !== 'PENDING')) interruptedSettledAt = now
        return rows.filter((t) => t.status === 'PENDING').length
      },
      { timeout: 120_000, intervals: [250] },
    )
    .toBe(0)
  const allSettledAt = Date.now()

  const tasks = await tasksOf([modelId])
  const sent = requestsPerTask(sd)
  const count = (status: string) => tasks.filter((t) => t.status === status).length
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  figure('kill -9: tasks / running at the kill / SUCCESS / FAIL', `${tasks.length} / ${interrupted.length} / ${count('SUCCESS')} / ${count('FAIL')}`)
  figure(
    'kill -9: refunds of FAIL / of SUCCESS tasks',
    `${tasks.filter((t) => t.status === 'FAIL').reduce((n, t) => n + t.refunds, 0)} / ${tasks.filter((t) => t.status === 'SUCCESS').reduce((n, t) => n + t.refunds, 0)}`,
  )
  figure('kill -9: new workers up (node + tsx start) after', seconds(backAt - killedAt))
  figure('kill -9: lease / longest a task stayed running past it (once workers were back)', `${LEASE_SECONDS} s / ${seconds(pastLeaseMs)}`)
  figure(
    'kill -9: recovery, kill → interrupted tasks settled / → queue empty',
    `${seconds(interruptedSettledAt - killedAt)} / ${seconds(allSettledAt - killedAt)}`,
  )

  expectSettledOnce(tasks)
  // A job cut off mid-render cannot be fetched: the probe finds it known and fails it (never run twice).
  // (A task claimed but not yet sent when the workers died is simply sent later.)
  const lost = tasks.filter((t) => interrupted.includes(t.id) && atBackend.has(t.id))
  expect(lost.length).toBeGreaterThan(0)
  expect(lost.filter((t) => t.status !== 'FAIL' || t.errorCode !== 'BACKEND_LOST')).toEqual([])
  expect(
    [...sent.values()].filter((n) => n !== 1),
    'no task sent to the backend twice',
  ).toEqual([])
  expect(sent.size, 'tasks that reached the backend').toBe(tasks.length)
  // The sweeper looks every half lease; on a loaded machine its timers slip, so the claim is
  // "handed back within one more lease or so", checked with room: 2 leases.
  expect(pastLeaseMs, 'no task held running for long after its lease (and the workers’ return)').toBeLessThan(2 * LEASE_SECONDS * 1000)
  await disableModel(request, admin, modelId)
})

test('a backend that always answers 500: each task tried exactly maxAttempts times, one refund each', async ({ request }) => {
  test.setTimeout(120_000)
  // Its health check passes: each failure is the task's, so it is retried (2 s, then 5 s).
  const sd = await fake({ behaviour: 'failing' })
  const modelId = await model(request, { endpoint: sd.url, concurrency: 2 })
  // One user: a backend failing several users' tasks would (rightly) leave routing first.
  const user = await userWithPoints(request, admin, 10)
  const ids: string[] = []
  for (let i = 0; i < 4; i++) {
    const res = await submit(request, user.auth, modelId, `always 500 ${i}`)
    expect(res.ok(), await res.text()).toBeTruthy()
    ids.push((await res.json()).data.id)
  }
  if (!workers.some((w) => w.child.exitCode === null)) await spawnWorkers(2, 2)
  await expect.poll(() => pending([modelId]), { timeout: 90_000, intervals: [250] }).toBe(0)

  const tasks = await tasksOf([modelId])
  const sent = requestsPerTask(sd)
  const tries = tasks.map((t) => ({ id: t.id, maxAttempts: t.maxAttempts, attempts: t.attempts, received: sent.get(t.id) ?? 0 }))
  const [row] = await sql<{ points: number }>(`SELECT "points" FROM "User" WHERE "id" = $1`, [user.id])
  figure(
    'always 500: tasks / generate requests the fake received per task (maxAttempts) / refunds',
    `${tasks.length} / ${[...new Set(tries.map((t) => t.received))].join(',')} (${tasks[0]!.maxAttempts}) / ${tasks.reduce((n, t) => n + t.refunds, 0)}`,
  )

  expectSettledOnce(tasks)
  expect(tasks.every((t) => t.status === 'FAIL' && t.errorCode === 'UPSTREAM_FAILED')).toBe(true)
  expect(tries.filter((t) => t.received !== t.maxAttempts || t.attempts !== t.maxAttempts)).toEqual([])
  expect(row!.points, 'every point back').toBe(10)
  await disableModel(request, admin, modelId)
})

test('4 worker processes × 1,000 quick tasks: each run exactly once, charged once, never refunded', async ({ request }) => {
  test.setTimeout(600_000)
  await killWorkers(workers, 'SIGTERM')
  const backends = [await fake({ behaviour: 'normal', stepMs: 0 }), await fake({ behaviour: 'normal', stepMs: 0 })]
  const pool = uniqueName('qfpool')
  const modelIds = [
    await model(request, { endpoint: backends[0]!.url, concurrency: 16, pool }),
    await model(request, { endpoint: backends[1]!.url, concurrency: 16, pool }),
  ]
  const users: Awaited<ReturnType<typeof userWithPoints>>[] = []
  for (let i = 0; i < 10; i++) users.push(await userWithPoints(request, admin, 100))

  // Queued first, with no worker running, so the run itself is what is timed.
  const submitStart = Date.now()
  const refused: string[] = []
  await Promise.all(
    users.map(async (user, u) => {
      for (let i = 0; i < 100; i++) {
        const res = await submit(request, user.auth, modelIds[i % 2]!, `quick ${u}-${i}`)
        if (!res.ok()) refused.push(await res.text())
      }
    }),
  )
  const submitMs = Date.now() - submitStart
  expect(refused).toEqual([])
  await spawnWorkers(4, 8)
  await expect.poll(() => pending(modelIds), { timeout: 480_000, intervals: [1000] }).toBe(0)

  const tasks = await tasksOf(modelIds)
  const sent = requestsPerTask(...backends)
  const twice = [...sent.entries()].filter(([, n]) => n !== 1)
  const points = await sql<{ points: number }>(`SELECT "points" FROM "User" WHERE "id" = ANY($1)`, [users.map((u) => u.id)])
  const started = Math.min(...tasks.map((t) => t.startedAt?.getTime() ?? Infinity))
  const finished = Math.max(...tasks.map((t) => t.finishedAt?.getTime() ?? 0))
  figure('1,000 tasks: submitted over HTTP by 10 users (10 at a time) in', `${(submitMs / 1000).toFixed(1)} s`)
  figure(
    '1,000 tasks on 4 workers × 8 slots, 2 backends: first start → last end / throughput',
    `${((finished - started) / 1000).toFixed(1)} s / ${((1000 * 1000) / (finished - started)).toFixed(1)} tasks/s`,
  )
  figure(
    '1,000 tasks: SUCCESS / sent to a backend ≠ once / charges ≠ 1 / refunds',
    `${tasks.filter((t) => t.status === 'SUCCESS').length} / ${twice.length + 1000 - sent.size} / ${tasks.filter((t) => t.charges !== 1).length} / ${tasks.reduce((n, t) => n + t.refunds, 0)}`,
  )

  expect(tasks).toHaveLength(1000)
  expectSettledOnce(tasks)
  expect(tasks.filter((t) => t.status !== 'SUCCESS' || t.attempts !== 1)).toEqual([])
  expect(sent.size, 'tasks that reached a backend').toBe(1000)
  expect(twice, 'tasks sent to a backend more than once').toEqual([])
  expect(points.map((p) => p.points)).toEqual(users.map(() => 0))
  for (const id of modelIds) await disableModel(request, admin, id)
})

test('a backend whose health check fails: new submits refused at once, its queue failed and refunded within the bound', async ({ request }) => {
  test.setTimeout(240_000)
  if (!workers.some((w) => w.child.exitCode === null)) await spawnWorkers(2, 2)
  const sd = await fake({ behaviour: 'slow', stepMs: 100 })
  const modelId = await model(request, { endpoint: sd.url, concurrency: 1 })
  const user = await userWithPoints(request, admin, 10)

  // One 15 s render holds the backend's only slot; three tasks wait behind it.
  const long = await submit(request, user.auth, modelId, 'a long render', 150)
  expect(long.ok(), await long.text()).toBeTruthy()
  await expect.poll(() => sd.bodies('/sdapi/v1/txt2img').length, { timeout: 30_000 }).toBe(1)
  const queued: string[] = []
  for (let i = 0; i < 3; i++) {
    const res = await submit(request, user.auth, modelId, `waiting ${i}`)
    expect(res.ok(), await res.text()).toBeTruthy()
    queued.push((await res.json()).data.id)
  }

  // Its model list and generate routes now answer 500: the whole server is broken.
  sd.set({ brokenLists: true, behaviour: 'failing' })
  const brokeAt = Date.now()
  // Two failed checks take it out: within 2 × (BACKEND_CHECK_SECONDS + the check's 10 s timeout).
  const outBound = 2 * (CHECK_SECONDS + 10)
  const healthy = async () => (await sql<{ healthy: boolean }>(`SELECT "healthy" FROM "AiModel" WHERE "id" = $1`, [modelId]))[0]!.healthy
  await expect.poll(healthy, { timeout: outBound * 1000, intervals: [100] }).toBe(false)
  const outAt = Date.now()

  const refused = await submit(request, user.auth, modelId, 'after the outage')
  const refusedMs = Date.now() - outAt
  expect(refused.status()).toBe(503)
  expect((await refused.json()).errMessage).toMatch(/^模型「.+」暂时不可用，请稍后再试（本次未扣积分）$/)
  const waiting = await (await request.get(`/api/tasks/${queued[0]}`, { headers: user.auth })).json()
  expect(waiting.data).toMatchObject({ status: 'PENDING', waitingNote: expect.stringContaining('暂时不可用') })

  // The promise: out of routing within outBound, then BACKEND_OUTAGE_REFUND_SECONDS.
  const bound = outBound + OUTAGE_SECONDS
  await expect.poll(() => pending([modelId]), { timeout: bound * 1000, intervals: [500] }).toBe(0)
  const tasks = await tasksOf([modelId])
  const waited = tasks.filter((t) => queued.includes(t.id))
  const refundedIn = Math.max(...waited.map((t) => t.finishedAt?.getTime() ?? Infinity)) - brokeAt
  const [row] = await sql<{ points: number }>(`SELECT "points" FROM "User" WHERE "id" = $1`, [user.id])
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  figure('health check failing: out of routing after', `${seconds(outAt - brokeAt)} (bound ${outBound} s at BACKEND_CHECK_SECONDS=${CHECK_SECONDS})`)
  figure('health check failing: next submit refused (503, 未扣积分) in', `${refusedMs} ms`)
  figure(
    'health check failing: queued tasks failed and refunded after',
    `${seconds(refundedIn)} (bound ${bound} s with BACKEND_OUTAGE_REFUND_SECONDS=${OUTAGE_SECONDS})`,
  )
  figure('health check failing: the render already running ended', tasks[0]!.status)

  expectSettledOnce(tasks)
  expect(waited.map((t) => t.errorCode)).toEqual(['BACKEND_DOWN', 'BACKEND_DOWN', 'BACKEND_DOWN'])
  // Never tried: the backend was out before their turn came.
  expect(waited.map((t) => t.attempts)).toEqual([0, 0, 0])
  expect(refundedIn).toBeLessThanOrEqual(bound * 1000)
  expect(row!.points, 'the long render paid, the rest refunded, the refused submit never charged').toBe(10 - (tasks[0]!.status === 'SUCCESS' ? 1 : 0))
})

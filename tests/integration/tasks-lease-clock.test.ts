// Leases are kept on the database's clock: the claim, the heartbeat and the sweeper all use
// PostgreSQL's now(), so a worker machine whose clock is minutes off neither loses its live
// tasks to another worker nor keeps a dead worker's tasks from being taken over.
import pg from 'pg'
import { afterEach, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { holdLease } from '@/lib/tasks/run-lease'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { createUser } from '../helpers/call-route'
import { createTaskRow } from '../helpers/tasks'

afterEach(() => {
  vi.useRealTimers()
})

const databaseNow = async () => (await db().$queryRaw<[{ now: Date }]>`SELECT now() AS "now"`)[0].now
const MINUTES = 60_000

async function runningTask(leaseOwner: string, leaseExpiresAt: Date) {
  const user = await createUser()
  return createTaskRow(user.id, {
    status: 'PENDING',
    stage: 'RUNNING',
    upstreamId: 'job-1',
    leaseOwner,
    leaseExpiresAt,
    deadlineAt: new Date((await databaseNow()).getTime() + 30 * MINUTES),
  })
}

it("a sweeper whose clock runs 5 minutes ahead leaves a live lease alone, and takes over one the database's clock says is over", async () => {
  const live = await runningTask('worker-live', new Date((await databaseNow()).getTime() + MINUTES))
  const dead = await runningTask('worker-dead', new Date((await databaseNow()).getTime() - 1_000))
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5 * MINUTES })
  await sweepTasks()
  vi.useRealTimers()
  expect(await db().task.findUniqueOrThrow({ where: { id: live.id } })).toMatchObject({ status: 'PENDING', leaseOwner: 'worker-live' })
  expect(await db().task.findUniqueOrThrow({ where: { id: dead.id } })).toMatchObject({ status: 'PENDING', leaseOwner: null })
})

it('a worker whose clock runs 5 minutes behind renews its lease from the database clock', async () => {
  const task = await runningTask('worker-slow-clock', new Date((await databaseNow()).getTime() + 10_000))
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 5 * MINUTES })
  const lease = holdLease({ id: task.id, deadlineAt: task.deadlineAt, previewUrl: null }, 'worker-slow-clock', new AbortController().signal)
  try {
    lease.ctx.onProgress(40) // a progress write renews the lease at once
    await vi.waitFor(async () => expect((await db().task.findUniqueOrThrow({ where: { id: task.id } })).progress).toBe(40))
  } finally {
    lease.end()
    vi.useRealTimers()
  }
  const { leaseExpiresAt } = await db().task.findUniqueOrThrow({ where: { id: task.id } })
  expect(leaseExpiresAt!.getTime()).toBeGreaterThan((await databaseNow()).getTime() + 30_000)
})

it('a heartbeat that renews a lease while the sweeper is failing the task keeps it running', async () => {
  const user = await createUser({ points: 10 })
  const task = await createTaskRow(user.id, {
    status: 'PENDING',
    stage: 'SUBMITTING',
    leaseOwner: 'worker-late-beat',
    leaseExpiresAt: new Date((await databaseNow()).getTime() - 1_000),
    attempts: 1,
    maxAttempts: 1,
    chargedPoints: 10,
    deadlineAt: new Date((await databaseNow()).getTime() + 30 * MINUTES),
  })
  const beat = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await beat.connect()
  try {
    // The worker's heartbeat takes the row first and renews the lease, not yet committed.
    await beat.query('BEGIN')
    await beat.query(`UPDATE "Task" SET "leaseExpiresAt" = now() + interval '1 minute' WHERE "id" = $1`, [task.id])
    const sweeping = sweepTasks()
    await new Promise((resolve) => setTimeout(resolve, 300))
    await beat.query('COMMIT')
    await sweeping
  } finally {
    await beat.end()
  }
  expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'PENDING', leaseOwner: 'worker-late-beat' })
  expect(await db().ledgerEntry.count({ where: { reference: `task:${task.id}:refund` } })).toBe(0)
})

// A task whose attempt ran into the database being away (docs/DECISIONS.md "Database timeouts"):
// it is neither failed nor refunded on the spot, since its result may be done; its lease runs
// out and the sweeper brings it back, and it ends charged once.
import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { failTask } from '@/lib/tasks/finish-task'
import { markAccepted } from '@/lib/tasks/run-produce'
import { settleFailure, type FailedRun } from '@/lib/tasks/run-settle'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { drainQueue, submitAndClaim } from '../helpers/tasks'

const ledger = async (taskId: string) =>
  (await db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${taskId}:` } }, orderBy: { id: 'asc' } })).map((r) => [
    r.reference.split(':')[2],
    r.amount,
  ])

/** Settles the claimed task's attempt as its worker would, with how the attempt ended. */
async function settleAttempt(
  { model, taskId, claimed }: Awaited<ReturnType<typeof submitAndClaim>>,
  workerId: string,
  error: Error,
  ended: Pick<FailedRun, 'accepted' | 'stopReason'>,
) {
  const row = await db().task.findUniqueOrThrow({ where: { id: taskId } })
  await settleFailure(error, {
    taskId,
    model,
    poolKey: null,
    workerId,
    attempts: claimed.attempts,
    maxAttempts: row.maxAttempts,
    deadlineAt: row.deadlineAt,
    previousLog: row.backendLog,
    ...ended,
  })
}

describe('the database away while a task settles', () => {
  it('the task stays leased and unrefunded; after its lease the sweeper requeues it and it succeeds, charged once', async () => {
    const claim = await submitAndClaim('db-away', 'w-db-away')
    const { user, taskId } = claim

    // Storing the images failed: the connection dropped. The database is back by the time the failure is settled.
    await settleAttempt(claim, 'w-db-away', new Error('Connection terminated unexpectedly'), { accepted: false, stopReason: null })
    expect(await db().task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: 'PENDING', leaseOwner: 'w-db-away' })
    expect(await ledger(taskId)).toEqual([['charge', -10]])

    // Nothing renews the lease; once it has run out the sweeper hands the task on.
    await db().task.update({ where: { id: taskId }, data: { leaseExpiresAt: new Date(Date.now() - 1) } })
    await sweepTasks()
    await db().task.update({ where: { id: taskId }, data: { runAfter: new Date() } })
    await drainQueue('w-db-back')
    expect(await db().task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: 'SUCCESS' })
    expect(await ledger(taskId)).toEqual([['charge', -10]])
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(40)
  })
})

describe('the database away as the backend accepts a job', () => {
  it("the job's id is written once the database is back, so a later attempt resumes the job instead of submitting it again", async () => {
    const { taskId } = await submitAndClaim('db-away-accepted', 'w-db-accepting')
    let calls = 0
    const blinking = async (id: string, worker: string, upstreamId: string) => {
      if (++calls <= 2) throw new Error('Connection terminated unexpectedly')
      const { count } = await db().task.updateMany({ where: { id, leaseOwner: worker }, data: { upstreamId, stage: 'RUNNING' } })
      return count === 1
    }
    await markAccepted(taskId, 'w-db-accepting', 'job-7', new AbortController().signal, blinking)
    expect(calls).toBe(3)
    expect(await db().task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ upstreamId: 'job-7', stage: 'RUNNING' })

    // A refusal that is not the database being away is not asked again.
    const refused = async () => {
      calls++
      throw new Error('violates check constraint')
    }
    calls = 0
    await expect(markAccepted(taskId, 'w-db-accepting', 'job-8', new AbortController().signal, refused)).rejects.toThrow('violates check constraint')
    expect(calls).toBe(1)
    expect(await failTask(taskId, { errorCode: 'UPSTREAM_FAILED', errorMessage: '测试结束', log: null }, { workerId: 'w-db-accepting' })).not.toBeNull()
  })
})

describe('a worker shutting down whose accepted job id could not be written', () => {
  it('puts the task back in the queue to be asked about, not left submitting with no lease for no one to take', async () => {
    const claim = await submitAndClaim('db-away-draining', 'w-draining')
    const { taskId } = claim
    // The backend accepted the job, the write of its id failed, and then the drain ran out of time.
    await settleAttempt(claim, 'w-draining', new Error('drained'), { accepted: true, stopReason: 'shutdown' })
    expect(await db().task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({
      status: 'PENDING',
      stage: 'QUEUED',
      leaseOwner: null,
      probeBeforeSubmit: true,
    })
    await db().task.update({ where: { id: taskId }, data: { runAfter: new Date() } })
    await drainQueue('w-after-drain')
    expect(await db().task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: 'SUCCESS' })
  })
})

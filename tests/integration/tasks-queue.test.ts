import { describe, expect, it, vi } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as cancelRoute from '@/app/api/tasks/[id]/cancel/route'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import { db } from '@/lib/db'
import { MAX_STORED, postMovement } from '@/lib/ledger/post-movement'
import { claimTask } from '@/lib/tasks/claim-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { runTask } from '@/lib/tasks/run-task'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

type Body = { type: string; modelId?: string; params: Record<string, unknown> }
const text2img = (extra: Record<string, unknown> = {}): Body => ({
  type: 'SD_TEXT2IMG',
  params: { prompt: '山间小屋', width: 256, height: 256, count: 1, ...extra },
})
const submit = (token: string, body: Body = text2img(), headers?: Record<string, string>) => callRoute(tasksRoute.POST, { token, body, headers })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const ledgerRows = (taskId: string) => db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${taskId}:` } }, orderBy: { id: 'asc' } })

describe('submitting', () => {
  it('50 concurrent submits against 100 points at 10 each: exactly 10 accepted, points end at 0', async () => {
    await createModel({ name: 'q-50', prices: { SD_TEXT2IMG: 10 }, sort: -1 })
    await db().siteConfig.upsert({
      where: { name: 'TASK_MAX_PENDING_PER_USER' },
      create: { name: 'TASK_MAX_PENDING_PER_USER', value: '100' },
      update: { value: '100' },
    })
    const { invalidateConfigCache } = await import('@/lib/site-config/store')
    invalidateConfigCache()
    const user = await createUser({ points: 100 })
    const results = await Promise.all(Array.from({ length: 50 }, () => submit(user.token)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(10)
    const refused = results.filter((r) => r.status !== 200)
    expect(refused.every((r) => r.status === 402 && r.body.errMessage?.startsWith('积分不足'))).toBe(true)
    expect(await points(user.id)).toBe(0)
    expect(await db().task.count({ where: { userId: user.id } })).toBe(10)
    expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'TASK_CHARGE' } })).toBe(10)
    await expectLedgerInvariants()
    await db().siteConfig.delete({ where: { name: 'TASK_MAX_PENDING_PER_USER' } })
    invalidateConfigCache()
    await drainQueue()
  })

  it('an Idempotency-Key replay returns the same task and charges once, even when sent together', async () => {
    const user = await createUser({ points: 50 })
    const key = { 'idempotency-key': 'form-123' }
    const [a, b, c] = await Promise.all([submit(user.token, text2img(), key), submit(user.token, text2img(), key), submit(user.token, text2img(), key)])
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200])
    expect(new Set([a.body.data.id, b.body.data.id, c.body.data.id]).size).toBe(1)
    expect(await points(user.id)).toBe(40)
    expect(await ledgerRows(a.body.data.id)).toHaveLength(1)
    const other = await submit(user.token, { type: 'SD_IMG2IMG', params: { prompt: 'x', initImageId: 'nope' } }, key)
    expect(other.status).toBe(409)
  })

  it('a key sent together by a user who can pay for one task only: every answer is that task, none is 积分不足', async () => {
    const user = await createUser({ points: 10 })
    const key = { 'idempotency-key': 'form-one-only' }
    const answers = await Promise.all(Array.from({ length: 8 }, () => submit(user.token, text2img(), key)))
    expect(answers.map((a) => `${a.status} ${a.body.errMessage ?? ''}`.trim())).toEqual(Array(8).fill('200'))
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1)
    expect(await points(user.id)).toBe(0)
    expect(await db().task.count({ where: { userId: user.id } })).toBe(1)
    expect(await ledgerRows(answers[0]!.body.data.id)).toHaveLength(1)
  })

  it('insufficient points write nothing; the message starts with 积分不足', async () => {
    const user = await createUser({ points: 5 })
    const res = await submit(user.token)
    expect(res.status).toBe(402)
    expect(res.body.errMessage).toBe('积分不足：本次需要 10 积分，当前 5 积分')
    expect(await db().task.count({ where: { userId: user.id } })).toBe(0)
    expect(await points(user.id)).toBe(5)
  })

  it('bad params, unknown uploads and banned words are refused before any charge', async () => {
    const user = await createUser({ points: 100 })
    expect((await submit(user.token, text2img({ width: 100 }))).body.errMessage).toContain('8 的倍数')
    expect((await submit(user.token, { type: 'SD_TEXT2IMG', params: { prompt: '' } })).status).toBe(400)
    expect((await submit(user.token, { type: 'SD_IMG2IMG', params: { prompt: 'x', initImageId: 'missing' } })).status).toBe(404)
    await db().siteConfig.upsert({ where: { name: 'BANNED_WORDS' }, create: { name: 'BANNED_WORDS', value: JSON.stringify('违禁\nforbidden') }, update: {} })
    const { invalidateConfigCache } = await import('@/lib/site-config/store')
    invalidateConfigCache()
    const banned = await submit(user.token, text2img({ prompt: 'a Forbidden thing' }))
    expect(banned.status).toBe(400)
    expect(banned.body.errMessage).toBe('提示词包含违禁词“forbidden”，请修改后再提交')
    expect(await points(user.id)).toBe(100)
    expect(await db().task.count({ where: { userId: user.id } })).toBe(0)
    await db().siteConfig.delete({ where: { name: 'BANNED_WORDS' } })
    invalidateConfigCache()
  })

  it('another user’s task is not found', async () => {
    const owner = await createUser({ points: 20 })
    const stranger = await createUser()
    const task = (await submit(owner.token)).body.data
    expect((await callRoute(taskRoute.GET, { token: stranger.token, params: { id: task.id } })).status).toBe(404)
    expect((await callRoute(cancelRoute.POST, { token: stranger.token, params: { id: task.id } })).status).toBe(404)
    await drainQueue()
  })
})

describe('cancelling', () => {
  it('a queued task: refunded once, however many cancels race', async () => {
    const user = await createUser({ points: 30 })
    const task = (await submit(user.token)).body.data
    const results = await Promise.all(Array.from({ length: 5 }, () => callRoute(cancelRoute.POST, { token: user.token, params: { id: task.id } })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(4)
    expect(await points(user.id)).toBe(30)
    expect((await ledgerRows(task.id)).map((r) => [r.kind, r.amount])).toEqual([
      ['TASK_CHARGE', -10],
      ['TASK_REFUND', 10],
    ])
    expect(await drainQueue()).toBe(0)
  })

  it('a running task: cancelled and refunded; the worker’s late result is dropped', async () => {
    const user = await createUser({ points: 30 })
    const task = (await submit(user.token)).body.data
    const claimed = (await claimTask('w-cancel'))!
    expect(claimed.id).toBe(task.id)
    expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id: task.id } })).status).toBe(200)
    await runTask(claimed, 'w-cancel', new AbortController().signal)
    const row = await db().task.findUniqueOrThrow({ where: { id: task.id } })
    expect(row.status).toBe('CANCELED')
    expect(row.results).toEqual([])
    expect(await points(user.id)).toBe(30)
    expect(await ledgerRows(task.id)).toHaveLength(2)
  })
})

describe('workers', () => {
  it('two workers never run one task', async () => {
    const user = await createUser({ points: 200 })
    for (let i = 0; i < 8; i++) await submit(user.token)
    const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => claimTask(`w${i}`)))
    const ids = claims.filter(Boolean).map((c) => c!.id)
    expect(new Set(ids).size).toBe(ids.length)
    await db().task.updateMany({ where: { userId: user.id }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
  })

  it('a backend slot is never over-filled: concurrency 1 means one running task at a time', async () => {
    const model = await createModel({ name: 'single-slot', concurrency: 1, sort: -5, prices: { SD_IMG2IMG: 1 } })
    const user = await createUser({ points: 100 })
    const { createUpload } = await import('@/lib/uploads/create-upload')
    const sharp = (await import('sharp')).default
    const upload = await createUpload(
      user.id,
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    )
    for (let i = 0; i < 3; i++)
      await submit(user.token, { type: 'SD_IMG2IMG', modelId: model.id, params: { prompt: 'x', initImageId: upload.id, width: 64, height: 64 } })
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => claimTask(`slot-${i}`)))
    const onModel = await db().task.count({ where: { modelId: model.id, stage: 'SUBMITTING' } })
    expect(claims.filter(Boolean)).toHaveLength(1)
    expect(onModel).toBe(1)
    await db().task.updateMany({ where: { modelId: model.id }, data: { stage: 'QUEUED', leaseOwner: null, leaseExpiresAt: null } })
    await drainQueue()
    expect(await db().task.count({ where: { modelId: model.id, status: 'SUCCESS' } })).toBe(3)
  })

  it('a worker killed mid-task: after its lease expires the task runs again and finishes, charged once', async () => {
    const user = await createUser({ points: 30 })
    const task = (await submit(user.token)).body.data
    const claimed = (await claimTask('w-dies'))!
    expect(claimed.id).toBe(task.id)
    // The worker dies here: no heartbeat, no result. Time passes beyond its lease.
    await db().task.update({ where: { id: task.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } })
    await sweepTasks()
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ stage: 'QUEUED', leaseOwner: null })
    await drainQueue('w-survivor')
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'SUCCESS', attempts: 2 })
    expect(await points(user.id)).toBe(20)
    // The dead worker's late completion changes nothing.
    const { completeTask } = await import('@/lib/tasks/finish-task')
    expect(await completeTask(task.id, 'w-dies', [], null)).toBe(false)
  })

  it('a worker killed on its last attempt: the task fails with exactly one refund', async () => {
    const user = await createUser({ points: 30 })
    const task = (await submit(user.token)).body.data
    await db().task.update({ where: { id: task.id }, data: { maxAttempts: 1 } })
    await claimTask('w-last')
    await db().task.update({ where: { id: task.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } })
    await Promise.all([sweepTasks(), sweepTasks(), sweepTasks()])
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_LOST' })
    expect(await points(user.id)).toBe(30)
    expect((await ledgerRows(task.id)).map((r) => r.kind)).toEqual(['TASK_CHARGE', 'TASK_REFUND'])
  })

  it('past its deadline a task fails with a refund, queued or not', async () => {
    const user = await createUser({ points: 30 })
    const task = (await submit(user.token)).body.data
    await db().task.update({ where: { id: task.id }, data: { deadlineAt: new Date(Date.now() - 1) } })
    expect(await db().task.count({ where: { status: 'PENDING', id: { not: task.id } } })).toBe(0)
    await sweepTasks()
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({
      status: 'FAIL',
      errorCode: 'TIMEOUT',
      errorMessage: '生成超时，积分已退还',
    })
    expect(await points(user.id)).toBe(30)
    await expectLedgerInvariants()
  })

  it('a refund the ledger refuses holds up neither the other tasks nor the dead-worker handling; the next pass tries it again', async () => {
    await createModel({ name: 'q-sweep', prices: { SD_TEXT2IMG: 10 } })
    const full = await createUser({ points: 30 })
    const other = await createUser({ points: 30 })
    const submitted = async (token: string) => {
      const res = await submit(token)
      expect(res.status).toBe(200)
      return res.body.data as { id: string }
    }
    const [stuckOverdue, stuckLost] = [await submitted(full.token), await submitted(full.token)]
    const [overdue, orphan] = [await submitted(other.token), await submitted(other.token)]
    // Topped up to the column's limit: a refund would overflow it, so postMovement refuses it.
    const topUp = (amount: number) =>
      db().$transaction((tx) =>
        postMovement(tx, { userId: full.id, account: 'POINTS', kind: 'ADMIN_ADJUST', amount, reference: `test-top-up:${full.id}:${amount}` }),
      )
    await topUp(MAX_STORED - 10)
    const past = new Date(Date.now() - 1000)
    await db().task.updateMany({ where: { id: { in: [stuckOverdue.id, overdue.id] } }, data: { deadlineAt: past } })
    // Workers that died: one on its last attempt (fails with a refund), one with attempts left (requeued).
    await db().task.update({ where: { id: stuckLost.id }, data: { stage: 'RUNNING', leaseOwner: 'w-gone', leaseExpiresAt: past, attempts: 1, maxAttempts: 1 } })
    await db().task.update({ where: { id: orphan.id }, data: { stage: 'SUBMITTING', leaseOwner: 'w-gone', leaseExpiresAt: past, attempts: 1 } })

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await expect(sweepTasks()).resolves.toBe(false)
      expect(logged.mock.calls.map(([message]) => message)).toEqual([
        `[sweeper] task ${stuckOverdue.id} could not be settled`,
        `[sweeper] task ${stuckLost.id} could not be settled`,
      ])
    } finally {
      logged.mockRestore()
    }
    expect(await db().task.findUniqueOrThrow({ where: { id: overdue.id } })).toMatchObject({ status: 'FAIL', errorCode: 'TIMEOUT' })
    expect((await ledgerRows(overdue.id)).map((r) => [r.kind, r.amount])).toEqual([
      ['TASK_CHARGE', -10],
      ['TASK_REFUND', 10],
    ])
    expect(await db().task.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({ status: 'PENDING', stage: 'QUEUED', leaseOwner: null })
    for (const id of [stuckOverdue.id, stuckLost.id]) {
      expect(await db().task.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'PENDING', refundedAt: null })
      expect((await ledgerRows(id)).map((r) => r.kind)).toEqual(['TASK_CHARGE'])
    }

    // Once the refunds fit, the next pass books them; the task refunded on the first pass is not refunded again.
    await topUp(-(MAX_STORED - 10))
    await sweepTasks()
    expect(await db().task.findUniqueOrThrow({ where: { id: stuckOverdue.id } })).toMatchObject({ status: 'FAIL', errorCode: 'TIMEOUT' })
    expect(await db().task.findUniqueOrThrow({ where: { id: stuckLost.id } })).toMatchObject({ status: 'FAIL', errorCode: 'BACKEND_LOST' })
    expect(await points(full.id)).toBe(30)
    expect((await ledgerRows(overdue.id)).map((r) => r.kind)).toEqual(['TASK_CHARGE', 'TASK_REFUND'])
    await drainQueue()
    expect(await points(other.id)).toBe(20)
    await expectLedgerInvariants()
  })
})

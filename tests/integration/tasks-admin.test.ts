import { describe, expect, it, vi } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as adminTasksRoute from '@/app/api/admin/tasks/route'
import * as adminCancelRoute from '@/app/api/admin/tasks/[id]/cancel/route'
import * as adminTaskRoute from '@/app/api/admin/tasks/[id]/route'
import { db } from '@/lib/db'
import { ADMIN_TASK_SELECT } from '@/lib/tasks/admin-task-views'
import { claimTask } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { toTaskView } from '@/lib/tasks/task-views'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const ledger = async (taskId: string) =>
  (await db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${taskId}:` } }, orderBy: { id: 'asc' } })).map((r) => [r.kind, r.amount])

/** GET /api/admin/tasks/{id} as the Prisma queries it replaced made it (its ledger rows, nulls and key order). */
async function prismaTaskDetail(id: string) {
  const task = await db().task.findUniqueOrThrow({
    where: { id },
    select: {
      ...ADMIN_TASK_SELECT,
      upstreamId: true,
      attempts: true,
      maxAttempts: true,
      errorCode: true,
      backendLog: true,
      priceSnapshot: true,
      deadlineAt: true,
      leaseOwner: true,
    },
  })
  const ledger = await db().ledgerEntry.findMany({
    where: { reference: { in: [`task:${id}:charge`, `task:${id}:refund`, `task:${id}:shortfall`] } },
    select: { id: true, kind: true, amount: true, balanceAfter: true, reference: true, createdAt: true },
    orderBy: { id: 'asc' },
  })
  return {
    ...toTaskView(task),
    user: task.user,
    upstreamId: task.upstreamId,
    attempts: task.attempts,
    maxAttempts: task.maxAttempts,
    errorCode: task.errorCode,
    backendLog: task.backendLog,
    priceSnapshot: task.priceSnapshot,
    deadlineAt: task.deadlineAt,
    leaseOwner: task.leaseOwner,
    ledger,
  }
}

async function submit(token: string, type = 'SD_TEXT2IMG', prompt = '枫叶') {
  const res = await callRoute(tasksRoute.POST, { token, body: { type, params: { prompt, width: 256, height: 256, count: 1 } } })
  expect(res.status).toBe(200)
  return res.body.data as { id: string }
}

describe('admin cancel', () => {
  it('a queued task: cancelled with a full refund exactly once however many cancels race; audited; a finished task cannot be cancelled', async () => {
    await createModel({ name: 'admin-cancel', prices: { SD_TEXT2IMG: 10 } })
    const admin = await createUser({ role: 'ADMIN' })
    const manager = await createUser({ role: 'MANAGER' })
    const user = await createUser({ points: 30 })
    const task = await submit(user.token)
    expect(await points(user.id)).toBe(20)

    const results = await Promise.all(
      [admin, manager, admin, manager].map((who) => callRoute(adminCancelRoute.POST, { token: who.token, params: { id: task.id } })),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409])
    const winner = results.find((r) => r.status === 200)!
    expect(winner.body.data).toMatchObject({ id: task.id, status: 'CANCELED', errorMessage: '任务已被管理员取消，积分已退还' })
    expect(results.filter((r) => r.status === 409).every((r) => r.body.errMessage === '任务已结束，无法取消')).toBe(true)
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'CANCELED', errorCode: 'CANCELED_BY_ADMIN' })
    expect(await ledger(task.id)).toEqual([
      ['TASK_CHARGE', -10],
      ['TASK_REFUND', 10],
    ])
    expect(await points(user.id)).toBe(30)
    expect(await db().adminAuditLog.count({ where: { action: 'task.cancel', targetId: task.id } })).toBe(1)
    // Nothing is left for a worker.
    expect(await drainQueue()).toBe(0)

    const done = await submit(user.token)
    await drainQueue()
    const late = await callRoute(adminCancelRoute.POST, { token: admin.token, params: { id: done.id } })
    expect(late.status).toBe(409)
    expect(await ledger(done.id)).toEqual([['TASK_CHARGE', -10]])
    expect((await callRoute(adminCancelRoute.POST, { token: admin.token, params: { id: 'no-such-task' } })).status).toBe(404)
    expect((await callRoute(adminCancelRoute.POST, { token: user.token, params: { id: done.id } })).status).toBe(403)
    // The detail, byte for byte what the Prisma queries made: a cancelled task (charge and refund,
    // error code, no wall entry) and a finished one on the wall (its charge alone).
    await db().wallWork.create({
      data: {
        taskId: done.id,
        userId: user.id,
        modelType: 'STABLE_DIFFUSION',
        modelName: 'admin-cancel',
        imageUrl: '/x.png',
        thumbUrl: '/x.png',
        width: 1,
        height: 1,
        prompt: '枫叶',
      },
    })
    for (const id of [task.id, done.id]) {
      const detail = await callRoute(adminTaskRoute.GET, { token: admin.token, params: { id } })
      expect(JSON.stringify(detail.body.data)).toBe(JSON.stringify(await prismaTaskDetail(id)))
    }
    expect((await callRoute(adminTaskRoute.GET, { token: admin.token, params: { id: task.id } })).body.data.wallWork).toBeNull()
    expect((await callRoute(adminTaskRoute.GET, { token: admin.token, params: { id: 'no-such-task' } })).body.errMessage).toBe('任务不存在')
    await expectLedgerInvariants()
  })

  it('a running task: cancelled and refunded once; its worker’s late result is dropped', async () => {
    await createModel({ name: 'admin-cancel-running', prices: { SD_TEXT2IMG: 10 } })
    const admin = await createUser({ role: 'ADMIN' })
    const user = await createUser({ points: 30 })
    const task = await submit(user.token)
    const claimed = (await claimTask('w-admin-cancel'))!
    expect(claimed.id).toBe(task.id)
    expect((await callRoute(adminCancelRoute.POST, { token: admin.token, params: { id: task.id } })).status).toBe(200)
    await runTask(claimed, 'w-admin-cancel', new AbortController().signal)
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'CANCELED', results: [] })
    expect(await ledger(task.id)).toEqual([
      ['TASK_CHARGE', -10],
      ['TASK_REFUND', 10],
    ])
    expect(await points(user.id)).toBe(30)
  })

  it('the audit record is written with the cancel: when it cannot be, the task is neither cancelled nor refunded, and a retry does both', async () => {
    await createModel({ name: 'admin-cancel-audit', prices: { SD_TEXT2IMG: 10 } })
    const admin = await createUser({ role: 'ADMIN' })
    const user = await createUser({ points: 30 })
    const task = await submit(user.token)
    const cancel = () => callRoute(adminCancelRoute.POST, { token: admin.token, params: { id: task.id } })

    // The audit insert fails, as a full disk or a lost connection would make it.
    await db().$executeRawUnsafe(`ALTER TABLE "AdminAuditLog" ADD CONSTRAINT "test_no_task_cancel" CHECK ("action" <> 'task.cancel') NOT VALID`)
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    const refused = await cancel().finally(async () => {
      quiet.mockRestore()
      await db().$executeRawUnsafe(`ALTER TABLE "AdminAuditLog" DROP CONSTRAINT "test_no_task_cancel"`)
    })
    expect(refused.status).toBe(500)
    expect(await db().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'PENDING', refundedAt: null })
    expect(await ledger(task.id)).toEqual([['TASK_CHARGE', -10]])
    expect(await points(user.id)).toBe(20)
    expect(await db().adminAuditLog.count({ where: { targetId: task.id } })).toBe(0)

    expect((await cancel()).status).toBe(200)
    expect(await ledger(task.id)).toEqual([
      ['TASK_CHARGE', -10],
      ['TASK_REFUND', 10],
    ])
    expect(await points(user.id)).toBe(30)
    expect(await db().adminAuditLog.findMany({ where: { targetId: task.id }, select: { action: true, actorId: true, targetType: true } })).toEqual([
      { action: 'task.cancel', actorId: admin.id, targetType: 'Task' },
    ])
    expect(await drainQueue()).toBe(0)
    await expectLedgerInvariants()
  })
})

const ROW_KEYS = 'id type status stage progress chargedPoints errorMessage results videos isRecommended refundedAt createdAt model user'.split(' ')

describe('GET /api/admin/tasks', () => {
  it('filters by type, status, user and date, newest first, with the total', async () => {
    const model = await createModel({ name: 'admin-list', prices: { SD_TEXT2IMG: 1, SD_XIAOLIMAO: 1 } })
    const preset = await db().customModel.create({ data: { name: '小狸猫', modelId: model.id, price: 1 } })
    const admin = await createUser({ role: 'ADMIN' })
    const alice = await createUser({ username: `alice${Date.now().toString(36)}`, name: '爱丽丝', points: 100 })
    const bob = await createUser({ username: `bob${Date.now().toString(36)}`, name: '鲍勃', points: 100 })
    const a1 = await submit(alice.token)
    const a2 = await submit(alice.token, 'SD_TEXT2IMG', '第二张')
    const b1 = (await callRoute(tasksRoute.POST, { token: bob.token, body: { type: 'SD_XIAOLIMAO', params: { customModelId: preset.id, prompt: '猫' } } })).body
      .data as { id: string }
    await drainQueue()
    const a3 = await submit(alice.token, 'SD_TEXT2IMG', '排队中')
    // Dates: a1 was made last week.
    const lastWeek = new Date(Date.now() - 7 * 24 * 3600_000)
    await db().task.update({ where: { id: a1.id }, data: { createdAt: lastWeek } })

    const list = async (query: Record<string, string | number>) => {
      const res = await callRoute(adminTasksRoute.GET, { token: admin.token, query: { page: 1, pageSize: 50, ...query } })
      expect(res.status).toBe(200)
      return { ids: (res.body.data.list as { id: string }[]).map((t) => t.id), total: res.body.data.total as number, list: res.body.data.list }
    }
    const ours = (ids: string[]) => ids.filter((id) => [a1.id, a2.id, a3.id, b1.id].includes(id))

    const all = await list({})
    expect(ours(all.ids)).toEqual([a3.id, b1.id, a2.id, a1.id])
    expect(all.list.find((t: { id: string }) => t.id === b1.id).user).toMatchObject({ id: bob.id, name: '鲍勃' })
    // A row carries what the table shows; the rest (parameters, buttons, backend log) is the detail's.
    for (const id of [a2.id, b1.id, a3.id]) {
      const row = all.list.find((t: { id: string }) => t.id === id)
      expect(Object.keys(row)).toEqual(ROW_KEYS)
      const detail = (await callRoute(adminTaskRoute.GET, { token: admin.token, params: { id } })).body.data
      expect(row).toEqual(Object.fromEntries(ROW_KEYS.map((key) => [key, detail[key]])))
    }
    expect(ours((await list({ type: 'SD_XIAOLIMAO' })).ids)).toEqual([b1.id])
    expect(ours((await list({ status: 'PENDING' })).ids)).toEqual([a3.id])
    expect(ours((await list({ status: 'SUCCESS', user: alice.username.toUpperCase() })).ids)).toEqual([a2.id, a1.id])
    expect((await list({ user: '鲍' })).ids).toEqual([b1.id])
    expect((await list({ user: bob.id })).total).toBe(1)
    expect((await list({ user: alice.username, from: new Date(Date.now() - 24 * 3600_000).toISOString() })).ids).toEqual([a3.id, a2.id])
    expect((await list({ user: alice.username, to: new Date(Date.now() - 24 * 3600_000).toISOString() })).ids).toEqual([a1.id])
    const page = await callRoute(adminTasksRoute.GET, { token: admin.token, query: { page: 2, pageSize: 1, user: alice.username } })
    expect(page.body.data).toMatchObject({ total: 3 })
    expect(page.body.data.list.map((t: { id: string }) => t.id)).toEqual([a2.id])

    expect((await callRoute(adminTasksRoute.GET, { token: admin.token, query: { status: 'DONE' } })).status).toBe(400)
    expect((await callRoute(adminTasksRoute.GET, { token: alice.token })).status).toBe(403)
    await drainQueue()
  })
})

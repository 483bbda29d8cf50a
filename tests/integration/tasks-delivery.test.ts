import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as adminTaskRoute from '@/app/api/admin/tasks/[id]/route'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { DEFAULT_WORKFLOWS } from '@/lib/generation/backends/comfyui-workflows'
import { completeTask, failTask } from '@/lib/tasks/finish-task'
import { settleSuccess } from '@/lib/tasks/run-settle'
import { fakePng } from '../fakes/common'
import { startFakeComfyui, type FakeComfy } from '../fakes/comfyui'
import { nodeOf } from '../fakes/comfyui-nodes'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue, submitAndClaim } from '../helpers/tasks'

let comfy: FakeComfy
beforeAll(async () => {
  comfy = await startFakeComfyui({ checkpoints: ['sd15.safetensors'] })
})
afterAll(async () => {
  await comfy.close()
})

/** A ComfyUI model whose operator's workflow has a fixed batch size of 1 (it ignores {{batch_size}}). */
async function oneImageModel(name: string) {
  const txt2img = structuredClone(DEFAULT_WORKFLOWS.txt2img)
  nodeOf(txt2img, '4').inputs.batch_size = 1
  return createModel({
    name,
    backend: 'comfyui',
    endpoint: comfy.url,
    checkpoint: 'sd15.safetensors',
    options: { pollIntervalMs: 20, workflows: { txt2img } } as never,
    concurrency: 1,
  })
}

describe('fewer images than paid for', () => {
  it('a workflow that makes one image when three were ordered: SUCCESS with that image, and the two missing images’ points come back once', async () => {
    const model = await oneImageModel('one-image')
    const user = await createUser({ points: 100 })
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '三只鹤', width: 256, height: 256, count: 3 } },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.chargedPoints).toBe(30)
    await drainQueue()

    const done = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    expect(done).toMatchObject({ status: 'SUCCESS', refundedAt: null })
    expect(done.results).toHaveLength(1)
    expect((done.backendLog as unknown[]).at(-1)).toEqual({ shortfall: { ordered: 3, delivered: 1, refundedPoints: 20 } })
    const rows = await db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${done.id}:` } }, orderBy: { id: 'asc' } })
    expect(rows.map((r) => [r.reference, r.kind, r.amount])).toEqual([
      [`task:${done.id}:charge`, 'TASK_CHARGE', -30],
      [`task:${done.id}:shortfall`, 'TASK_REFUND', 20],
    ])
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(90)

    // A late second completion (a worker that lost its lease) changes nothing and refunds nothing.
    expect(await completeTask(done.id, 'test-worker', [], null, {}, { userId: user.id, ordered: 3, delivered: 0, points: 30 })).toBe(false)
    expect(await db().ledgerEntry.count({ where: { reference: { startsWith: `task:${done.id}:` } } })).toBe(2)

    // The console's task details list the shortfall refund with the charge.
    const admin = await createUser({ role: 'ADMIN' })
    const details = await callRoute(adminTaskRoute.GET, { token: admin.token, params: { id: done.id } })
    expect(details.body.data.ledger.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toEqual([
      ['TASK_CHARGE', -30],
      ['TASK_REFUND', 20],
    ])
    await expectLedgerInvariants()
  })

  it('a member’s discounted task gives back the missing images’ share of what it charged, not their full price', async () => {
    const model = await oneImageModel('one-image-member')
    const user = await createUser({ points: 100 })
    await db().membership.create({
      data: { userId: user.id, kind: 'IMAGE', planName: '半价月卡', expiresAt: new Date(Date.now() + 86_400_000), discountPercent: 50 },
    })
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '三只鹤', width: 256, height: 256, count: 3 } },
    })
    expect(res.body.data.chargedPoints).toBe(15)
    await drainQueue()
    const done = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    expect(done.results).toHaveLength(1)
    // Two thirds of 15 come back: the one image delivered cost 5, the member's price of one.
    expect((done.backendLog as unknown[]).at(-1)).toEqual({ shortfall: { ordered: 3, delivered: 1, refundedPoints: 10 } })
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(95)
    await expectLedgerInvariants()
  })

  it('all images delivered: no shortfall row', async () => {
    const model = await createModel({
      name: 'all-images',
      backend: 'comfyui',
      endpoint: comfy.url,
      checkpoint: 'sd15.safetensors',
      options: { pollIntervalMs: 20 },
      concurrency: 1,
    })
    const user = await createUser({ points: 100 })
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '两只鹤', width: 256, height: 256, count: 2 } },
    })
    await drainQueue()
    const done = await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })
    expect(done.status).toBe('SUCCESS')
    expect(done.results).toHaveLength(2)
    expect(await db().ledgerEntry.count({ where: { reference: `task:${done.id}:shortfall` } })).toBe(0)
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(80)
  })
})

describe('images stored for an ending the worker does not get', () => {
  it('are removed: the user cancelled while they were being stored, so no row names them', async () => {
    const { taskId } = await submitAndClaim('cancelled-while-storing', 'w-storing')
    const task = await db().task.findUniqueOrThrow({ where: { id: taskId }, include: { model: true } })
    // The cancel has already ended the task when the worker comes to complete it.
    await db().task.update({ where: { id: taskId }, data: { leaseOwner: 'the-canceller' } })
    const before = await storedResults()
    await settleSuccess(task, 'w-storing', { kind: 'completed', images: [{ bytes: await fakePng(3, 64), seed: 1 }], log: null })
    expect(await db().task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: 'PENDING', results: [] })
    expect(await storedResults()).toEqual(before)
    await db().task.update({ where: { id: taskId }, data: { leaseOwner: 'w-storing' } })
    await failTask(taskId, { errorCode: 'CANCELED', errorMessage: '已取消', log: null }, { workerId: 'w-storing' })
    await expectLedgerInvariants()
  })
})

/** The names under the local store's results/ folder. */
async function storedResults(): Promise<string[]> {
  const root = path.join(env().DATA_DIR, 'files', 'results')
  const names = await readdir(root, { recursive: true }).catch(() => [] as string[])
  return names.filter((name) => name.endsWith('.png') || name.endsWith('.webp')).sort()
}

// GET /api/tasks, the caller's own tasks: one raw statement now (lib/tasks/list-tasks.ts).
// Its answer must be the very bytes the Prisma query it replaced gave, for tasks of every
// type and status, every filter, every page, an empty page and the total.
import { beforeAll, describe, expect, it } from 'vitest'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { Status, TaskType, type Status as TStatus, type TaskType as TTaskType } from '@/lib/generated/prisma/enums'
import { getConfigValue } from '@/lib/site-config/store'
import { getMyTask, listMyTasks } from '@/lib/tasks/list-tasks'
import { TASK_VIEW_SELECT, toTaskView } from '@/lib/tasks/task-views'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel } from '../helpers/tasks'
import { rawCall } from '../helpers/sign-in'

type Query = { page: number; pageSize: number; status?: TStatus; type?: TTaskType }

/** The list as it was answered before: Prisma, two relations and a count. */
async function previousList(userId: string, query: Query) {
  const where: Prisma.TaskWhereInput = {
    userId,
    deletedAt: null,
    ...(query.status ? { status: query.status } : {}),
    ...(query.type ? { type: query.type } : {}),
  }
  const [rows, total] = await Promise.all([
    db().task.findMany({ where, select: TASK_VIEW_SELECT, orderBy: { createdAt: 'desc' }, skip: (query.page - 1) * query.pageSize, take: query.pageSize }),
    db().task.count({ where }),
  ])
  return { list: rows.map(toTaskView), total }
}

/** One task as it was answered before: Prisma, then for a queued task two counts and maybe the outage setting. */
async function previousTask(userId: string, taskId: string) {
  const row = await db().task.findFirst({
    where: { id: taskId, userId, deletedAt: null },
    select: { ...TASK_VIEW_SELECT, modelId: true, poolKey: true, runAfter: true, attempts: true, maxAttempts: true, backendLog: true },
  })
  if (!row) return null
  const { modelId, poolKey, runAfter, attempts, maxAttempts, backendLog, ...view } = row
  if (!(row.status === 'PENDING' && row.stage === 'QUEUED')) return { ...toTaskView(view), queuePosition: null, waitingNote: null }
  const [ahead, inRouting] = await Promise.all([
    db().task.count({ where: { modelId, status: 'PENDING', stage: 'QUEUED', createdAt: { lt: row.createdAt } } }),
    db().aiModel.count({ where: poolKey ? { pool: poolKey, enabled: true, healthy: true } : { id: modelId, healthy: true } }),
  ])
  let waitingNote: string | null = null
  if (!inRouting) {
    const minutes = Math.max(1, Math.round((await getConfigValue<number>('BACKEND_OUTAGE_REFUND_SECONDS')) / 60))
    waitingNote = `模型「${row.model.name}」暂时不可用，恢复后自动开始；约 ${minutes} 分钟内仍未恢复将取消任务并退还积分`
  } else {
    const last = Array.isArray(backendLog) ? (backendLog[0] as { error?: unknown } | null) : null
    if (last?.error && runAfter.getTime() > Date.now())
      waitingNote = last.error === 'BUSY' ? '生成服务繁忙，稍后自动重试' : `上一次尝试失败，稍后自动重试（已尝试 ${attempts}/${maxAttempts} 次）`
  }
  return { ...toTaskView(view), queuePosition: ahead + 1, waitingNote }
}

const STATUSES = Object.values(Status)
const TYPES = Object.values(TaskType)
let owner: Awaited<ReturnType<typeof createUser>>
let ownTasks = 0
const listed = new Map<string, number>()

beforeAll(async () => {
  const model = await createModel({ name: '列表模型' })
  const other = await createModel({ name: 'other-model' })
  owner = await createUser()
  const stranger = await createUser()
  const start = Date.UTC(2026, 0, 1, 3, 4, 5, 678)
  let n = 0
  // Every type in every status, twice; odd fields filled in on some so each column is seen both ways.
  for (const _round of [0, 1])
    for (const type of TYPES)
      for (const status of STATUSES) {
        const i = n++
        const finished = status !== 'PENDING'
        const task = await db().task.create({
          data: {
            userId: owner.id,
            type,
            status,
            stage: finished ? 'DONE' : i % 2 ? 'RUNNING' : 'QUEUED',
            progress: finished ? 100 : i % 90,
            params: i % 5 ? { prompt: `山间云海 "${i}" \\ <b>`, count: 1 + (i % 4), nested: { seed: i, tags: ['a', 'é'] } } : {},
            modelId: i % 3 ? model.id : other.id,
            priceSnapshot: { pricePerImage: 2 },
            chargedPoints: i % 7,
            deadlineAt: new Date(start + 3_600_000),
            errorMessage: status === 'FAIL' ? '生成失败，积分已退还' : null,
            results: status === 'SUCCESS' ? [{ url: `/files/results/${i}.png`, thumbUrl: `/files/results/${i}.webp`, width: 512, height: 768, seed: i }] : [],
            videos: type.startsWith('VIDEO') && status === 'SUCCESS' ? [{ url: `/files/v/${i}.mp4`, posterUrl: `/files/v/${i}.jpg`, durationSec: 5.5 }] : [],
            parentId: i % 11 === 0 ? 'some-parent' : null,
            action: type.startsWith('MJ') ? 'imagine' : null,
            buttons: type.startsWith('MJ') && status === 'SUCCESS' ? [{ customId: `MJ::U1::${i}`, label: 'U1', emoji: '' }] : [],
            previewUrl: type.startsWith('MJ') && status === 'PENDING' ? `/files/preview/${i}.png` : null,
            isRecommended: i % 13 === 0,
            refundedAt: status === 'FAIL' || status === 'CANCELED' ? new Date(start + i * 1000 + 500) : null,
            startedAt: finished || i % 2 ? new Date(start + i * 1000 + 123) : null,
            finishedAt: finished ? new Date(start + i * 1000 + 999) : null,
            createdAt: new Date(start + i * 1000),
            // The owner deleted a few from their history: never listed nor counted.
            deletedAt: i % 17 === 5 ? new Date(start + i * 1000 + 5) : null,
          },
        })
        if (i % 17 !== 5) {
          ownTasks++
          listed.set(`${status}/${type}`, (listed.get(`${status}/${type}`) ?? 0) + 1)
        }
        if (status === 'SUCCESS' && i % 2 === 0)
          await db().wallWork.create({
            data: {
              taskId: task.id,
              userId: owner.id,
              status: i % 4 === 0 ? 'APPROVED' : 'PENDING',
              featured: i % 8 === 0,
              modelType: 'STABLE_DIFFUSION',
              modelName: '列表模型',
              imageUrl: '/a.png',
              thumbUrl: '/a.webp',
              width: 512,
              height: 768,
              prompt: '云',
            },
          })
      }
  // Someone else's tasks, newer than all of the owner's.
  for (let i = 0; i < 5; i++)
    await db().task.create({
      data: {
        userId: stranger.id,
        type: 'SD_TEXT2IMG',
        status: 'SUCCESS',
        params: {},
        modelId: model.id,
        priceSnapshot: {},
        chargedPoints: 1,
        deadlineAt: new Date(),
        createdAt: new Date(start + 1_000_000 + i),
      },
    })
})

describe('GET /api/tasks', () => {
  it('answers what the Prisma query it replaced answered, key for key: every filter, every page, past the end', async () => {
    const filters: Array<Pick<Query, 'status' | 'type'>> = [
      {},
      ...STATUSES.map((status) => ({ status })),
      ...TYPES.map((type) => ({ type })),
      { status: 'SUCCESS', type: 'MJ_TEXT2IMG' },
      { status: 'PENDING', type: 'VIDEO_IMG2VIDEO' },
    ]
    let compared = 0
    for (const filter of filters)
      for (const pageSize of [7, 20, 100]) {
        const expected = await previousList(owner.id, { page: 1, pageSize, ...filter })
        const pages = Math.ceil(expected.total / pageSize)
        for (let page = 1; page <= pages + 1; page++) {
          const query = { page, pageSize, ...filter }
          const before = JSON.stringify(await previousList(owner.id, query))
          expect(JSON.stringify(await listMyTasks(owner.id, query)), JSON.stringify(query)).toBe(before)
          compared++
        }
      }
    expect(compared).toBeGreaterThan(100)
  })

  it('through the route: the list, the total, the filters and an empty page', async () => {
    const all = await callRoute(tasksRoute.GET, { token: owner.token, query: { page: 1, pageSize: 100 } })
    expect(all.status).toBe(200)
    expect(all.body.data).toEqual(JSON.parse(JSON.stringify(await previousList(owner.id, { page: 1, pageSize: 100 }))))
    expect(all.body.data.total).toBe(ownTasks)
    expect(all.body.data.list).toHaveLength(ownTasks)
    // Every field of the answer, the nested ones too, is the one the old query gave (types included).
    const wall = all.body.data.list.find((t: { wallWork: unknown }) => t.wallWork)
    expect(wall.wallWork).toEqual({ id: expect.any(String), status: expect.stringMatching(/^(APPROVED|PENDING)$/), featured: expect.any(Boolean) })
    expect(all.body.data.list.some((t: { wallWork: unknown }) => t.wallWork === null)).toBe(true)

    const failed = await callRoute(tasksRoute.GET, { token: owner.token, query: { status: 'FAIL', type: 'SD_IMG2IMG', pageSize: 100 } })
    expect(failed.body.data.total).toBe(listed.get('FAIL/SD_IMG2IMG'))
    expect(failed.body.data.total).toBeGreaterThan(0)
    expect(failed.body.data.list.map((t: { status: string; type: string }) => `${t.status}/${t.type}`)).toEqual(
      Array(listed.get('FAIL/SD_IMG2IMG')).fill('FAIL/SD_IMG2IMG'),
    )

    const past = await callRoute(tasksRoute.GET, { token: owner.token, query: { page: 99, pageSize: 20 } })
    expect(past.body.data).toEqual({ list: [], total: ownTasks })

    const nobody = await createUser()
    expect((await callRoute(tasksRoute.GET, { token: nobody.token })).body.data).toEqual({ list: [], total: 0 })
    expect((await callRoute(tasksRoute.GET, { token: owner.token, query: { status: 'DONE' } })).status).toBe(400)
    expect((await callRoute(tasksRoute.GET, {})).status).toBe(401)
  })

  it('tasks made in the same millisecond: each listed once across the pages, in one order', async () => {
    const model = await createModel({ name: 'same-ms' })
    const user = await createUser()
    const at = new Date()
    await db().task.createMany({
      data: Array.from({ length: 9 }, () => ({
        userId: user.id,
        type: 'SD_TEXT2IMG' as const,
        params: {},
        modelId: model.id,
        priceSnapshot: {},
        chargedPoints: 1,
        deadlineAt: at,
        createdAt: at,
      })),
    })
    const seen: string[] = []
    for (let page = 1; page <= 5; page++) seen.push(...(await listMyTasks(user.id, { page, pageSize: 2 })).list.map((t) => t.id))
    expect(seen).toHaveLength(9)
    expect(seen).toEqual([...seen].sort().reverse())
  })
})

describe('GET /api/tasks/{id}', () => {
  it('answers what the Prisma queries it replaced answered, key for key: every task, queued ones with their place and note', async () => {
    // Queued tasks held up in every way the note tells: a model out of routing, a pool with or
    // without a healthy member, a retry waiting after BUSY or another error, one whose wait is over.
    const user = await createUser()
    const down = await createModel({ name: '停用的模型', healthy: false })
    const up = await createModel({ name: 'pooled-up', pool: 'pool-up' })
    await createModel({ name: 'pooled-off', pool: 'pool-off', enabled: false })
    const later = new Date(Date.now() + 600_000)
    const cases = [
      { modelId: down.id },
      { modelId: up.id, poolKey: 'pool-up' },
      { modelId: up.id, poolKey: 'pool-off' },
      { modelId: down.id, poolKey: '' },
      { modelId: up.id, backendLog: [{ error: 'BUSY' }], runAfter: later, attempts: 1 },
      { modelId: up.id, backendLog: [{ error: 'UPSTREAM_FAILED' }, { error: 'BUSY' }], runAfter: later, attempts: 2 },
      { modelId: up.id, backendLog: [{ error: 'BUSY' }], runAfter: new Date(Date.now() - 1_000) },
      { modelId: up.id, backendLog: [null], runAfter: later },
      { modelId: up.id, backendLog: { error: 'BUSY' }, runAfter: later },
    ]
    for (const [i, data] of cases.entries())
      await db().task.create({
        data: {
          userId: user.id,
          type: 'SD_TEXT2IMG',
          params: { i },
          priceSnapshot: {},
          chargedPoints: 2,
          deadlineAt: later,
          createdAt: new Date(Date.now() - 60_000 + i),
          ...data,
        },
      })
    const tasks = await db().task.findMany({ where: { userId: { in: [owner.id, user.id] } }, select: { id: true, userId: true } })
    let queued = 0
    for (const { id, userId } of tasks) {
      const before = await previousTask(userId, id)
      if (!before) {
        await expect(getMyTask(userId, id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: '任务不存在' })
        continue
      }
      if (before.queuePosition !== null) queued++
      // The text PostgreSQL wrote (jsonb keeps its own spacing) holds the same keys, in the same order.
      expect(JSON.stringify((await getMyTask(userId, id)).value), id).toBe(JSON.stringify(before))
      const res = await rawCall(taskRoute.GET, { token: userId === owner.id ? owner.token : user.token, params: { id } })
      expect([res.headers.get('content-type'), JSON.stringify(await res.json())], id).toEqual([
        'application/json',
        JSON.stringify({ success: true, data: before }),
      ])
    }
    expect(queued).toBeGreaterThan(cases.length)
    const notes = await Promise.all(tasks.filter((t) => t.userId === user.id).map(async (t) => (await getMyTask(user.id, t.id)).value.waitingNote))
    expect(new Set(notes.map((n) => n?.slice(0, 4) ?? null))).toEqual(new Set(['模型「停', '模型「p', null, '生成服务', '上一次尝']))

    const one = tasks.find((t) => t.userId === owner.id)!
    const res = await callRoute(taskRoute.GET, { token: owner.token, params: { id: one.id } })
    expect(res.body.data).toEqual(JSON.parse(JSON.stringify(await previousTask(owner.id, one.id))))
    expect((await callRoute(taskRoute.GET, { token: user.token, params: { id: one.id } })).status).toBe(404)
  })
})

// Midjourney tasks through the whole engine against the fake proxy: submit (charge, options
// composed, translation), worker (progress, preview, grid, buttons), buttons as child tasks
// priced per action, codes 23 and 24, the notify hook as a hint, and every refusal.
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as notifyRoute from '@/app/api/mj/notify/[secret]/route'
import * as mjTasksRoute from '@/app/api/mj/tasks/route'
import * as actionRoute from '@/app/api/tasks/[id]/action/route'
import * as cancelRoute from '@/app/api/tasks/[id]/cancel/route'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { mjNotifySecret } from '@/lib/mj/notify-secret'
import { sealModelSecret } from '@/lib/models/model-secret'
import { sealSecret } from '@/lib/site-config/secret-box'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { readStoredFile } from '@/lib/storage/storage'
import { claimTask, type ClaimedTask } from '@/lib/tasks/claim-task'
import { activeRuns } from '@/lib/tasks/run-lease'
import { runTask } from '@/lib/tasks/run-task'
import { listMjTaskTrees } from '@/lib/tasks/list-mj-tasks'
import { TASK_VIEW_SELECT, toTaskView, type TaskView } from '@/lib/tasks/task-views'
import { createUpload } from '@/lib/uploads/create-upload'
import { startServer } from '../fakes/common'
import { leftHalfMask, solidPng } from '../fakes/jobs'
import { startFakeMjProxy, type FakeMj } from '../fakes/mj-proxy'
import { startFakeChat, type FakeChat } from '../fakes/openai-chat'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { at } from '../helpers/present'
import { createModel, drainQueue } from '../helpers/tasks'

const PRICES = { MJ_IMAGINE: 8, MJ_UPSCALE: 2, MJ_VARIATION: 6, MJ_REROLL: 7, MJ_ZOOM: 5, MJ_PAN: 5, MJ_MODAL: 9, MJ_BLEND: 10, MJ_DESCRIBE: 3 }

let fake: FakeMj
let chat: FakeChat
let hooks: { url: string; close(): Promise<void> }
const hookAnswers: { status: number; body: unknown }[] = []

beforeAll(async () => {
  fake = await startFakeMjProxy({ secret: 'mj-s3cret', stepMs: 25 })
  chat = await startFakeChat({
    一只橘猫坐在窗台上: 'an orange cat sitting on a windowsill',
    狗: 'dogs',
    红色围巾: 'a red scarf',
    // A translation model talked into adding a parameter nobody chose.
    极速的猫: 'a cat --turbo',
  })
  // Where the fake proxy POSTs its notifyHook: handed to the route handler as Next.js would.
  hooks = await startServer(async (req, res, url, raw) => {
    const response = await notifyRoute.POST(
      new Request(`http://localhost${url.pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array(raw) }),
      { params: Promise.resolve({ secret: url.pathname.split('/').at(-1)! }) },
    )
    const body = await response.json()
    hookAnswers.push({ status: response.status, body })
    res.writeHead(response.status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
})
afterAll(async () => {
  await Promise.all([fake.close(), chat.close(), hooks.close()])
})
beforeEach(() => {
  fake.set({ stepMs: 25, notify: 'normal', coreSize: 3, queueSize: 10 })
  chat.set('normal')
})

/** The bytes behind one of our /files addresses, or null once the file is removed. */
const storedFileOf = (url: string) => readStoredFile(url.replace(/^\/files\//, ''))

async function mjModel(options: Record<string, unknown> = {}, data: Record<string, unknown> = {}) {
  return createModel({
    name: 'MJ',
    type: 'MID_JOURNEY',
    backend: 'mj-proxy',
    endpoint: fake.url,
    secretEnc: sealModelSecret('mj-s3cret'),
    prices: PRICES,
    options: { pollIntervalMs: 30, notifyBaseUrl: hooks.url, ...options },
    concurrency: 3,
    ...data,
  })
}

async function imagine(modelId: string, params: Record<string, unknown> = {}, points = 100) {
  const user = await createUser({ points })
  const res = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'MJ_TEXT2IMG', modelId, params: { prompt: 'an orange cat', ...params } } })
  expect(res.status, res.body.errMessage).toBe(200)
  return { user, task: res.body.data as { id: string; chargedPoints: number; params: Record<string, unknown> } }
}

const press = (token: string, id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  callRoute(actionRoute.POST, { token, params: { id }, body, headers })
const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const refunds = (id: string) => db().ledgerEntry.count({ where: { reference: `task:${id}:refund` } })
const buttonsOf = async (id: string) => (await task(id)).buttons as Array<{ customId: string; label: string; emoji: string }>
const storedPixel = async (url: string, x: number, y: number) => {
  const { data, info } = await sharp((await readStoredFile(url.replace('/files/', '')))!)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const i = (y * info.width + x) * 3
  return (data.readUInt8(i) << 16) | (data.readUInt8(i + 1) << 8) | data.readUInt8(i + 2)
}

async function setConfig(values: Record<string, unknown>, secret: string[] = []) {
  for (const [name, value] of Object.entries(values)) {
    const stored = secret.includes(name) ? sealSecret(JSON.stringify(value)) : JSON.stringify(value)
    await db().siteConfig.upsert({ where: { name }, create: { name, value: stored }, update: { value: stored } })
  }
  invalidateConfigCache()
}

describe('Midjourney tasks', () => {
  it('imagine → progress and preview → grid with buttons → U2 → the upscaled second cell', async () => {
    fake.set({ stepMs: 80 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, { prompt: 'an orange cat', aspectRatio: '3:2', version: '6.1', stylize: 250 })
    expect(t).toMatchObject({ chargedPoints: 8, params: { finalPrompt: 'an orange cat --ar 3:2 --v 6.1 --s 250', mjAction: 'IMAGINE' } })
    expect(await task(t.id)).toMatchObject({ action: 'imagine', priceSnapshot: { pricePerImage: 8, count: 1, priceKey: 'MJ_IMAGINE' } })

    const running = drainQueue()
    await expect.poll(async () => (await task(t.id)).previewUrl, { timeout: 10_000 }).toMatch(/^\/files\/previews\//)
    await expect.poll(async () => (await task(t.id)).progress, { timeout: 10_000 }).toBeGreaterThan(0)
    await running
    const done = await task(t.id)
    expect(done).toMatchObject({ status: 'SUCCESS', progress: 100, upstreamId: expect.stringMatching(/^\d{16}$/) })
    expect(fake.bodies('/mj/submit/imagine').at(-1)).toMatchObject({
      prompt: 'an orange cat --ar 3:2 --v 6.1 --s 250',
      state: t.id,
      notifyHook: `${hooks.url}/api/mj/notify/${mjNotifySecret(model.id)}`,
    })
    const grid = at(done.results as Array<{ url: string; width: number }>, 0)
    expect(grid.width).toBe(256)
    expect(await storedPixel(grid.url, 200, 60)).toBe(fake.coloursOf(done.upstreamId!)[1])
    const buttons = await buttonsOf(t.id)
    expect(buttons.map((b) => b.label || b.emoji)).toEqual(['U1', 'U2', 'U3', 'U4', '🔄', 'V1', 'V2', 'V3', 'V4'])
    const view = await callRoute(taskRoute.GET, { token: user.token, params: { id: t.id } })
    expect(view.body.data).toMatchObject({
      action: 'imagine',
      buttons: expect.arrayContaining([expect.objectContaining({ label: 'U2' })]),
      previewUrl: null, // the grid replaced the progress preview, whose file is gone
    })

    const pressed = await press(user.token, t.id, { customId: at(buttons, 1).customId })
    expect(pressed.status, pressed.body.errMessage).toBe(200)
    const child = pressed.body.data as { id: string }
    expect(await task(child.id)).toMatchObject({
      type: 'MJ_IMG2IMG',
      parentId: t.id,
      action: at(buttons, 1).customId,
      chargedPoints: 2,
      poolKey: null,
      modelId: model.id,
      priceSnapshot: { priceKey: 'MJ_UPSCALE' },
    })
    await drainQueue()
    const upscaled = await task(child.id)
    expect(upscaled.status).toBe('SUCCESS')
    expect(fake.bodies('/mj/submit/action').at(-1)).toMatchObject({ taskId: done.upstreamId, customId: at(buttons, 1).customId, state: child.id })
    expect(await storedPixel(at(upscaled.results as Array<{ url: string }>, 0).url, 10, 10)).toBe(fake.coloursOf(done.upstreamId!)[1])
    expect((await buttonsOf(child.id)).some((b) => b.customId.startsWith('MJ::Inpaint::'))).toBe(true)
    expect(await points(user.id)).toBe(100 - 8 - 2)
    // The same U again: the proxy would answer with the first job, so it is refused, not charged twice.
    const again = await press(user.token, t.id, { customId: at(buttons, 1).customId })
    expect([again.status, again.body.errMessage]).toEqual([409, '这张图已经放大过了，请在作品中查看'])
    expect(await points(user.id)).toBe(100 - 8 - 2)
    // U3 pressed in two tabs at once, each with its own key: one upscale, one charge.
    const u3 = at(buttons, 2).customId
    const both = await Promise.all(['tab-a', 'tab-b'].map((key) => press(user.token, t.id, { customId: u3 }, { 'idempotency-key': key })))
    expect(both.map((r) => r.status).sort()).toEqual([200, 409])
    expect(await db().task.count({ where: { parentId: t.id, action: u3 } })).toBe(1)
    expect(await points(user.id)).toBe(100 - 8 - 2 - 2)
    await drainQueue()

    const trees = await callRoute(mjTasksRoute.GET, { token: user.token })
    expect(trees.body.data).toMatchObject({
      total: 1,
      list: [{ id: t.id, children: [{ id: child.id, action: at(buttons, 1).customId, children: [] }, { action: u3 }] }],
    })
    await expectLedgerInvariants()
  })

  it('queue full (23): the submit goes back to the queue without a refund, blame or used-up attempt, and the retry succeeds', async () => {
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id)
    fake.answerNext(23)
    const before = fake.bodies('/mj/submit/imagine').length
    await drainQueue()
    const waiting = await task(t.id)
    expect(waiting).toMatchObject({ status: 'PENDING', stage: 'QUEUED', attempts: 0, upstreamId: null })
    expect(waiting.runAfter.getTime()).toBeGreaterThan(Date.now() + 1_000)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: true })
    expect(await points(user.id)).toBe(92)
    await db().task.update({ where: { id: t.id }, data: { runAfter: new Date() } })
    await drainQueue()
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS', attempts: 1 })
    expect(fake.bodies('/mj/submit/imagine').length - before).toBe(2)
    expect(await refunds(t.id)).toBe(0)
    expect(await points(user.id)).toBe(92)
  })

  it('banned word (24): FAIL at once, refunded once, the word in the message', async () => {
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, { prompt: 'a badword cat' })
    await drainQueue()
    expect(await task(t.id)).toMatchObject({
      status: 'FAIL',
      attempts: 1,
      errorCode: 'REJECTED',
      errorMessage: '提示词包含 Midjourney 禁止的词「badword」，积分已退还，请修改后重试',
    })
    expect(await refunds(t.id)).toBe(1)
    expect(await points(user.id)).toBe(100)
  })

  it('code 9 (system error): FAIL at once with a refund, not retried, the instance kept in routing', async () => {
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id)
    fake.answerNext(9)
    await drainQueue()
    expect(await task(t.id)).toMatchObject({
      status: 'FAIL',
      attempts: 1,
      errorCode: 'UPSTREAM_FAILED',
      errorMessage: 'Midjourney 服务出错：系统异常，积分已退还',
    })
    expect(await refunds(t.id)).toBe(1)
    expect(await points(user.id)).toBe(100)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: true })
  })

  it('an overfilled proxy (1 running, 1 waiting, then code 23): every task finishes, each charged once and none refunded', async () => {
    fake.set({ coreSize: 1, queueSize: 1, stepMs: 10 })
    const model = await mjModel({}, { concurrency: 7 })
    const users = [await createUser({ points: 100 }), await createUser({ points: 100 })]
    const ids: string[] = []
    for (let i = 0; i < 7; i++) {
      const res = await callRoute(tasksRoute.POST, {
        token: at(users, i % 2).token,
        body: { type: 'MJ_TEXT2IMG', modelId: model.id, params: { prompt: `crowded ${i}` } },
      })
      expect(res.status, res.body.errMessage).toBe(200)
      ids.push(res.body.data.id)
    }
    const refusedBefore = fake.queueRefusals()
    for (let round = 0; round < 20; round++) {
      // Seven workers at once: each claims one task, then all submit together.
      const claimed: ClaimedTask[] = []
      for (let next = await claimTask(`crowd-${round}-0`); next; next = await claimTask(`crowd-${round}-${claimed.length}`)) claimed.push(next)
      await Promise.all(claimed.map((c, i) => runTask(c, `crowd-${round}-${i}`, new AbortController().signal)))
      if ((await db().task.count({ where: { id: { in: ids }, status: 'PENDING' } })) === 0) break
      // What the BUSY backoff would wait out.
      await db().task.updateMany({ where: { id: { in: ids }, status: 'PENDING', stage: 'QUEUED' }, data: { runAfter: new Date() } })
    }
    // Two jobs fit per round (one running, one waiting): the other five were refused by the proxy itself.
    expect(fake.queueRefusals() - refusedBefore).toBeGreaterThanOrEqual(5)
    const done = await db().task.findMany({ where: { id: { in: ids } }, select: { status: true, errorMessage: true } })
    expect(done.filter((t) => t.status !== 'SUCCESS')).toEqual([])
    for (const id of ids) expect(await refunds(id)).toBe(0)
    for (const user of users) expect(await points(user.id)).toBe(100 - 8 * (user === users[0] ? 4 : 3))
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ healthy: true })
    await expectLedgerInvariants()
  })

  it('the niji option submits to the Niji bot (botType NIJI_JOURNEY)', async () => {
    fake.set({ stepMs: 10 })
    const model = await mjModel()
    const { task: t } = await imagine(model.id, { prompt: 'a fox spirit', niji: '6' })
    await drainQueue()
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS' })
    expect(fake.bodies('/mj/submit/imagine').at(-1)).toMatchObject({ prompt: 'a fox spirit --niji 6', botType: 'NIJI_JOURNEY', state: t.id })
  })

  it('the job fails on the proxy: FAIL with its reason, refunded', async () => {
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, { prompt: 'a cat __FAIL__' })
    await drainQueue()
    expect(await task(t.id)).toMatchObject({
      status: 'FAIL',
      errorCode: 'UPSTREAM_FAILED',
      errorMessage: '生成失败：Request cancelled due to image filters，积分已退还',
    })
    expect(await points(user.id)).toBe(100)
  })

  it('a notify hook never sent: polling alone finishes the task', async () => {
    fake.set({ notify: 'lost' })
    const model = await mjModel()
    const { task: t } = await imagine(model.id)
    await drainQueue()
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS' })
    expect(fake.deliveries.filter((d) => d.hook.endsWith(mjNotifySecret(model.id)))).toHaveLength(0)
  })

  it('a flaky notify hook (callbacks lost, doubled or late at random): one result, one charge', async () => {
    fake.set({ notify: 'flaky', lateMs: 200, stepMs: 30 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id)
    await drainQueue()
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS', progress: 100 })
    expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'TASK_CHARGE' } })).toBe(1)
    expect(await points(user.id)).toBe(92)
  })

  it('the notify hook wakes the waiting worker: with a one-hour poll interval the task still finishes in seconds', async () => {
    const model = await mjModel({ pollIntervalMs: 3_600_000 })
    const { task: t } = await imagine(model.id)
    const started = Date.now()
    await drainQueue()
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS' })
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(hookAnswers.some((a) => (a.body as { data: { isAccepted: boolean } }).data.isAccepted)).toBe(true)
  })

  it('duplicated and late callbacks are harmless: one result, one charge, late ones ignored', async () => {
    fake.set({ notify: 'duplicate' })
    const model = await mjModel()
    const first = await imagine(model.id)
    await drainQueue()
    fake.set({ notify: 'late', lateMs: 400 })
    const second = await imagine(model.id)
    await drainQueue()
    const answered = hookAnswers.length
    await expect.poll(() => hookAnswers.length, { timeout: 5_000 }).toBeGreaterThan(answered)
    await new Promise((resolve) => setTimeout(resolve, 500))
    for (const { task: t, user } of [first, second]) {
      expect(await task(t.id)).toMatchObject({ status: 'SUCCESS' })
      expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'TASK_CHARGE' } })).toBe(1)
      expect(await points(user.id)).toBe(92)
    }
    expect(hookAnswers.every((a) => a.status === 200)).toBe(true)
    expect(hookAnswers.slice(answered).every((a) => !(a.body as { data: { isAccepted: boolean } }).data.isAccepted)).toBe(true)
  })

  it('the notify route: an unknown secret is a 404, a body without id a 400; a forged SUCCESS writes nothing', async () => {
    const model = await mjModel({ pollIntervalMs: 3_600_000 })
    const secret = mjNotifySecret(model.id)
    expect((await callRoute(notifyRoute.POST, { params: { secret: 'not-a-secret' }, body: { id: '1' } })).status).toBe(404)
    expect((await callRoute(notifyRoute.POST, { params: { secret }, body: { status: 'SUCCESS' } })).status).toBe(400)
    expect((await callRoute(notifyRoute.POST, { params: { secret }, body: { id: '1700000000000001' } })).body.data).toEqual({ isAccepted: false })
    // An id sent as a bare number: kept when exact, refused once JSON.parse has rounded it (it would name another task).
    expect((await callRoute(notifyRoute.POST, { params: { secret }, body: '{"id": 1700000000000001}' })).body.data).toEqual({ isAccepted: false })
    const rounded = await callRoute(notifyRoute.POST, { params: { secret }, body: '{"id": 1234567890123456789}' })
    expect([rounded.status, rounded.body.errMessage]).toEqual([400, '回调内容的任务 id 是超出精度的数字，请让代理以字符串发送任务 id'])

    const { user, task: t } = await imagine(model.id, { prompt: 'a cat __STUCK__' })
    const running = drainQueue()
    await expect.poll(async () => (await task(t.id)).upstreamId, { timeout: 5_000 }).toBeTruthy()
    const { upstreamId } = await task(t.id)
    const forged = { id: upstreamId, status: 'SUCCESS', progress: '100%', imageUrl: 'http://169.254.169.254/latest/meta-data', buttons: [] }
    expect((await callRoute(notifyRoute.POST, { params: { secret }, body: forged })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await task(t.id)).toMatchObject({ status: 'PENDING', results: [] })
    expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id: t.id } })).status).toBe(200)
    activeRuns.get(t.id)?.() // what the worker does when the cancel's NOTIFY reaches it
    await running
    expect(await points(user.id)).toBe(100)
  })

  it('a task cancelled after its progress preview shows is refunded and shows the preview no more', async () => {
    fake.set({ stepMs: 400 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, { prompt: 'a slow cat' }, 100)
    const running = drainQueue()
    // Two previews in turn: the first one's file goes when the second replaces it.
    const shown = new Set<string>()
    await expect
      .poll(
        async () => {
          const url = (await task(t.id)).previewUrl
          if (url) shown.add(url)
          return shown.size
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(2)
    const [firstPreview, secondPreview] = [...shown] as [string, string]
    expect(firstPreview).toMatch(/^\/files\/previews\//)
    await expect.poll(() => storedFileOf(firstPreview), { timeout: 5_000 }).toBeNull()
    expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id: t.id } })).status).toBe(200)
    activeRuns.get(t.id)?.()
    await running
    expect(await task(t.id)).toMatchObject({ status: 'CANCELED', previewUrl: null })
    expect((await callRoute(taskRoute.GET, { token: user.token, params: { id: t.id } })).body.data.previewUrl).toBeNull()
    expect(await points(user.id)).toBe(100)
    // Refunded, nothing was delivered: the preview's file is gone too.
    expect(await storedFileOf(secondPreview)).toBeNull()
    for (const url of shown) expect(await storedFileOf(url), url).toBeNull()
  })

  it("a run stopped by the worker's shutdown and resumed by another: each replaced preview's file goes, and the last one with the results", async () => {
    fake.set({ stepMs: 300 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, { prompt: 'a resumed cat' }, 100)
    const shown = new Set<string>()
    const watchPreview = async () => {
      const url = (await task(t.id)).previewUrl
      if (url) shown.add(url)
      return url
    }
    const claimed = await claimTask('worker-stopping')
    expect(claimed?.id).toBe(t.id)
    const shutdown = new AbortController()
    const firstRun = runTask(claimed!, 'worker-stopping', shutdown.signal)
    await expect.poll(watchPreview, { timeout: 10_000, interval: 50 }).toMatch(/^\/files\/previews\//)
    const leftByFirstRun = (await task(t.id)).previewUrl!
    shutdown.abort()
    await firstRun
    expect(await task(t.id)).toMatchObject({ status: 'PENDING', previewUrl: leftByFirstRun })
    // The next run shows previews of its own, then the grid.
    const secondRun = drainQueue('worker-resuming')
    await expect
      .poll(async () => (await watchPreview()) !== leftByFirstRun && (await task(t.id)).status === 'PENDING', { timeout: 10_000, interval: 50 })
      .toBe(true)
    await secondRun
    await watchPreview()
    expect(await task(t.id)).toMatchObject({ status: 'SUCCESS', previewUrl: null })
    expect((await task(t.id)).results).toHaveLength(1)
    expect(shown.size).toBeGreaterThanOrEqual(2)
    for (const url of shown) expect(await storedFileOf(url), url).toBeNull()
    expect(await points(user.id)).toBe(100 - t.chargedPoints)
  })

  it("buttons are refused unless offered, on the owner's own finished MJ task, with the input they need; nothing is charged", async () => {
    fake.set({ stepMs: 10 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, {}, 100)
    const other = await createUser({ points: 100 })
    const u1 = async () => at(await buttonsOf(t.id), 0).customId

    const early = await press(user.token, t.id, { customId: 'MJ::JOB::upsample::1::abc' })
    expect([early.status, early.body.errMessage]).toEqual([409, '任务完成后才能使用这些按钮'])
    await drainQueue()
    const refusals: Array<[string, Record<string, unknown>, number, string]> = [
      [t.id, { customId: 'MJ::JOB::upsample::1::not-offered' }, 400, '该任务没有这个按钮'],
      [t.id, { customId: await u1(), prompt: 'extra' }, 400, '该操作不需要提示词'],
      [t.id, { customId: await u1(), maskImageId: 'x' }, 400, '只有局部重绘需要蒙版'],
      [t.id, { customId: '' }, 400, '请选择要执行的操作'],
      ['nope', { customId: await u1() }, 404, '任务不存在'],
    ]
    for (const [id, body, status, message] of refusals) {
      const res = await press(user.token, id, body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(res.body.errMessage).toContain(message)
    }
    const theirs = await press(other.token, t.id, { customId: await u1() })
    expect([theirs.status, theirs.body.errMessage]).toEqual([404, '任务不存在'])

    const upscale = await press(user.token, t.id, { customId: await u1() })
    await drainQueue()
    const upscaled = (upscale.body.data as { id: string }).id
    const buttons = await buttonsOf(upscaled)
    const find = (prefix: string) => buttons.find((b) => b.customId.startsWith(prefix))!.customId
    const more: Array<[Record<string, unknown>, string]> = [
      [{ customId: find('MJ::JOB::animate_high') }, '暂不支持该操作'],
      [{ customId: find('MJ::Inpaint::') }, '请在图片上涂抹要重绘的区域'],
      [{ customId: find('MJ::CustomZoom::'), prompt: 'wider' }, '自定义缩放需要 --zoom 参数，取值 1-2，例如 --zoom 1.5'],
      [{ customId: find('MJ::CustomZoom::'), prompt: 'wider --zoom 3' }, '自定义缩放需要 --zoom 参数，取值 1-2，例如 --zoom 1.5'],
      [{ customId: find('MJ::CustomZoom::'), prompt: 'wider --zoom 1.5 --turbo' }, '所选模型不支持该速度模式'],
    ]
    for (const [body, message] of more) {
      const res = await press(user.token, upscaled, body)
      expect([res.status, res.body.errMessage]).toEqual([400, message])
    }
    expect(await db().task.count({ where: { userId: user.id } })).toBe(2)
    expect(await points(user.id)).toBe(100 - 8 - 2)

    const sd = await createModel({ name: 'sd' })
    const sdTask = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId: sd.id, params: { prompt: 'x', width: 64, height: 64 } },
    })
    await drainQueue()
    const notMj = await press(user.token, sdTask.body.data.id, { customId: await u1() })
    expect([notMj.status, notMj.body.errMessage]).toEqual([400, '只有 Midjourney 任务可以使用这些按钮'])
  })

  it('vary region: the painted mask and prompt reach /submit/modal, charged at the modal price; custom zoom too', async () => {
    fake.set({ stepMs: 10 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id)
    await drainQueue()
    const u3 = await press(user.token, t.id, { customId: at(await buttonsOf(t.id), 2).customId })
    await drainQueue()
    const upscaled = (u3.body.data as { id: string }).id
    const buttons = await buttonsOf(upscaled)
    const mask = await createUpload(user.id, await leftHalfMask(256, 256))
    const region = await press(user.token, upscaled, {
      customId: buttons.find((b) => b.customId.startsWith('MJ::Inpaint::'))!.customId,
      prompt: 'a red scarf',
      maskImageId: mask.id,
    })
    expect(region.status, region.body.errMessage).toBe(200)
    const zoomId = buttons.find((b) => b.customId.startsWith('MJ::CustomZoom::'))!.customId
    const key = { 'Idempotency-Key': 'zoom-once' }
    const zoom = await press(user.token, upscaled, { customId: zoomId, prompt: 'a wide street --zoom 1.5' }, key)
    // The same button under the same key with another prompt is another request, not a retry.
    const otherPrompt = await press(user.token, upscaled, { customId: zoomId, prompt: 'a narrow alley --zoom 2' }, key)
    expect(otherPrompt.status).toBe(409)
    expect((await press(user.token, upscaled, { customId: zoomId, prompt: 'a wide street --zoom 1.5' }, key)).body.data.id).toBe(zoom.body.data.id)
    await drainQueue()
    for (const id of [region.body.data.id, zoom.body.data.id])
      expect(await task(id)).toMatchObject({ status: 'SUCCESS', chargedPoints: 9, priceSnapshot: { priceKey: 'MJ_MODAL' } })
    const regionTask = await task(region.body.data.id)
    expect(fake.maskOf(regionTask.upstreamId!)).not.toBeNull()
    const sentMask = await sharp(fake.maskOf(regionTask.upstreamId!)!).greyscale().raw().toBuffer({ resolveWithObject: true })
    expect([sentMask.data[128 * 256 + 10], sentMask.data[128 * 256 + 250]]).toEqual([255, 0])
    expect(fake.bodies('/mj/submit/modal').map((b) => b.prompt)).toEqual(expect.arrayContaining(['a red scarf', 'a wide street --zoom 1.5']))
    const other = await createUser()
    const foreignMask = await press(other.token, upscaled, { customId: at(buttons, 0).customId })
    expect(foreignMask.status).toBe(404)
    expect(await points(user.id)).toBe(100 - 8 - 2 - 9 - 9)
  })

  it('a button with too few points is 积分不足; the same Idempotency-Key gives the same child; with another button a 409', async () => {
    fake.set({ stepMs: 10 })
    const model = await mjModel()
    const { user, task: t } = await imagine(model.id, {}, 10)
    await drainQueue()
    const buttons = await buttonsOf(t.id)
    const reroll = await press(user.token, t.id, { customId: at(buttons, 4).customId })
    expect([reroll.status, reroll.body.errMessage]).toEqual([402, '积分不足：本次需要 7 积分，当前 2 积分'])
    const headers = { 'Idempotency-Key': 'press-u1-once' }
    const first = await press(user.token, t.id, { customId: at(buttons, 0).customId }, headers)
    const again = await press(user.token, t.id, { customId: at(buttons, 0).customId }, headers)
    expect(again.body.data.id).toBe(first.body.data.id)
    const other = await press(user.token, t.id, { customId: at(buttons, 1).customId }, headers)
    expect(other.status).toBe(409)
    expect(await points(user.id)).toBe(0)
    await drainQueue()
  })

  it('describe → four prompts and their buttons; PicReader 2 imagines the second one; blend mixes 2 images', async () => {
    fake.set({ stepMs: 10 })
    const model = await mjModel()
    const user = await createUser({ points: 100 })
    const [a, b] = await Promise.all([createUpload(user.id, await solidPng(64, 64, '#ff0000')), createUpload(user.id, await solidPng(64, 64, '#0000ff'))])
    const describe = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'MJ_IMG2IMG', modelId: model.id, params: { mjAction: 'DESCRIBE', referenceImageIds: [a.id] } },
    })
    const blend = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'MJ_IMG2IMG', modelId: model.id, params: { mjAction: 'BLEND', referenceImageIds: [a.id, b.id], dimensions: 'PORTRAIT' } },
    })
    expect([describe.body.data.chargedPoints, blend.body.data.chargedPoints]).toEqual([3, 10])
    await drainQueue()
    const described = await task(describe.body.data.id)
    expect(described).toMatchObject({ status: 'SUCCESS', action: 'describe', results: [], params: { referenceImageUrls: [a.url] } })
    const prompts = (described.params as { describedPrompts: string[] }).describedPrompts
    expect(prompts).toHaveLength(4)
    expect(await task(blend.body.data.id)).toMatchObject({ status: 'SUCCESS', action: 'blend' })
    expect(fake.bodies('/mj/submit/blend').at(-1)).toMatchObject({ dimensions: 'PORTRAIT' })

    const pic = await press(user.token, described.id, { customId: 'MJ::Job::PicReader::2' })
    expect(pic.body.data).toMatchObject({ type: 'MJ_TEXT2IMG', chargedPoints: 8, params: { prompt: prompts[1] } })
    await drainQueue()
    expect(await task(pic.body.data.id)).toMatchObject({ status: 'SUCCESS' })
  })

  it('a describe that succeeds with no prompt text fails and is refunded', async () => {
    fake.set({ stepMs: 10, emptyDescribe: true })
    try {
      const model = await mjModel()
      const user = await createUser({ points: 100 })
      const image = await createUpload(user.id, await solidPng(64, 64, '#00ff00'))
      const describe = await callRoute(tasksRoute.POST, {
        token: user.token,
        body: { type: 'MJ_IMG2IMG', modelId: model.id, params: { mjAction: 'DESCRIBE', referenceImageIds: [image.id] } },
      })
      expect(describe.body.data.chargedPoints).toBe(3)
      await drainQueue()
      expect(await task(describe.body.data.id)).toMatchObject({ status: 'FAIL', errorCode: 'BAD_RESPONSE' })
      expect(await points(user.id)).toBe(100)
    } finally {
      fake.set({ emptyDescribe: false })
    }
  })

  it('Chinese prompts are translated before charging and shown; a failed translation charges nothing', async () => {
    await setConfig({ TRANSLATE_ENABLED: true, TRANSLATE_API_BASE: chat.url, TRANSLATE_MODEL: 'gpt-4o-mini' })
    await setConfig({ TRANSLATE_API_KEY: 'sk-test' }, ['TRANSLATE_API_KEY'])
    try {
      fake.set({ stepMs: 10 })
      const model = await mjModel()
      const { user, task: t } = await imagine(model.id, { prompt: '一只橘猫坐在窗台上 --no 狗', aspectRatio: '16:9' })
      expect(t.params).toMatchObject({
        prompt: '一只橘猫坐在窗台上 --no 狗',
        promptEn: 'an orange cat sitting on a windowsill',
        finalPrompt: 'an orange cat sitting on a windowsill --ar 16:9 --no dogs',
      })
      expect(chat.calls.at(-1)).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-test' }, body: { model: 'gpt-4o-mini' } })
      await drainQueue()
      expect(fake.bodies('/mj/submit/imagine').at(-1)!.prompt).toBe('an orange cat sitting on a windowsill --ar 16:9 --no dogs')

      const english = await imagine(model.id, { prompt: 'already english' })
      expect(english.task.params.promptEn).toBeUndefined()

      chat.set('failing')
      const res = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'MJ_TEXT2IMG', modelId: model.id, params: { prompt: '红色围巾' } } })
      expect([res.status, res.body.errMessage]).toEqual([502, '提示词翻译失败（翻译接口返回 HTTP 500），未扣除积分，请稍后重试或直接使用英文提示词'])
      chat.set('empty')
      const empty = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'MJ_TEXT2IMG', modelId: model.id, params: { prompt: '红色围巾' } } })
      expect(empty.body.errMessage).toMatch(/没有返回译文/)
      // A parameter in the answer (here a speed the model does not offer) was never asked for.
      chat.set('normal')
      const injected = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'MJ_TEXT2IMG', modelId: model.id, params: { prompt: '极速的猫' } } })
      expect([injected.status, injected.body.errMessage]).toEqual([
        502,
        '提示词翻译失败（译文中含有 Midjourney 参数），未扣除积分，请稍后重试或直接使用英文提示词',
      ])
      expect(await db().task.count({ where: { userId: user.id } })).toBe(1)
      expect(await points(user.id)).toBe(92)

      // Someone who could not pay for the task is refused before the (paid) translation is asked for.
      chat.set('normal')
      const poor = await createUser({ points: 0 })
      const asked = chat.calls.length
      const refused = await callRoute(tasksRoute.POST, { token: poor.token, body: { type: 'MJ_TEXT2IMG', modelId: model.id, params: { prompt: '红色围巾' } } })
      expect([refused.status, refused.body.errMessage]).toEqual([402, '积分不足：本次需要 8 积分，当前 0 积分'])
      expect(chat.calls.length).toBe(asked)
    } finally {
      await setConfig({ TRANSLATE_ENABLED: false })
    }
  })

  it('bad MJ input is a clear 400 and writes nothing; speed modes only where the model offers them', async () => {
    const model = await mjModel({ speeds: ['fast', 'relax'] })
    const user = await createUser({ points: 100 })
    const submit = (type: string, params: Record<string, unknown>) =>
      callRoute(tasksRoute.POST, { token: user.token, body: { type, modelId: model.id, params } })
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['MJ_TEXT2IMG', { prompt: '' }, '请输入提示词'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', rawParams: 'no dashes' }, '额外参数需以 -- 开头，例如 --no text'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', stylize: 5000 }, '风格化范围 0-1000'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', quality: 3 }, '画质只能是 0.25、0.5、1、2、4'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', aspectRatio: 'wide' }, '画面比例应为 宽:高，例如 16:9'],
      ['MJ_TEXT2IMG', { prompt: '--ar 16:9' }, '请在参数前写上画面描述'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', speed: 'turbo' }, '所选模型不支持该速度模式'],
      // Typed into the prompt or the extra parameters, a speed is still a choice of speed.
      ['MJ_TEXT2IMG', { prompt: 'a cat --turbo' }, '所选模型不支持该速度模式'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', rawParams: '--no text --TURBO' }, '所选模型不支持该速度模式'],
      // As a Chinese input method (——) or a phone (—) writes the dashes; Midjourney reads them as --.
      ['MJ_TEXT2IMG', { prompt: 'a cat ——turbo' }, '所选模型不支持该速度模式'],
      ['MJ_TEXT2IMG', { prompt: 'a cat', rawParams: '—no text —turbo' }, '所选模型不支持该速度模式'],
      ['MJ_TEXT2IMG', { prompt: 'a cat --fast', speed: 'relax' }, '一次只能选择一种速度模式'],
      ['MJ_IMG2IMG', { prompt: 'a cat', referenceImageIds: [] }, '参考图至少 1 张'],
      ['MJ_IMG2IMG', { mjAction: 'BLEND', referenceImageIds: ['a'] }, '混图图片至少 2 张'],
      ['MJ_IMG2IMG', { mjAction: 'DESCRIBE', referenceImageIds: ['missing'] }, '上传的图片不存在或已过期，请重新上传'],
    ]
    for (const [type, params, message] of cases) {
      const res = await submit(type, params)
      expect(res.status, JSON.stringify(params)).toBe(message.startsWith('上传') ? 404 : 400)
      expect(res.body.errMessage).toContain(message)
    }
    expect(await db().task.count({ where: { userId: user.id } })).toBe(0)
    expect(await points(user.id)).toBe(100)

    const relax = await submit('MJ_TEXT2IMG', { prompt: 'a cat --c 20', speed: 'relax', chaos: 5, rawParams: '--no text' })
    expect(relax.body.data.params.finalPrompt).toBe('a cat --relax --c 20 --no text')
    const typedOnPhone = await submit('MJ_TEXT2IMG', { prompt: 'a cat —ar 16:9', rawParams: '—no text' })
    expect(typedOnPhone.body.data.params.finalPrompt).toBe('a cat --ar 16:9 --no text')
    await drainQueue()
  })

  it('without a chosen model, a speed goes to the first model that offers it, and is refused when none does', async () => {
    await db().aiModel.updateMany({ data: { enabled: false } })
    const plain = await mjModel({}, { sort: 1 })
    const turbo = await mjModel({ speeds: ['turbo'] }, { sort: 2 })
    const user = await createUser({ points: 100 })
    const submit = (params: Record<string, unknown>) => callRoute(tasksRoute.POST, { token: user.token, body: { type: 'MJ_TEXT2IMG', params } })

    const asked = await submit({ prompt: 'a cat', speed: 'turbo' })
    expect(asked.status, asked.body.errMessage).toBe(200)
    expect((await task(asked.body.data.id)).modelId).toBe(turbo.id)
    const typed = await submit({ prompt: 'a cat --turbo' })
    expect((await task(typed.body.data.id)).modelId).toBe(turbo.id)
    const none = await submit({ prompt: 'a cat' })
    expect((await task(none.body.data.id)).modelId).toBe(plain.id)

    await db().aiModel.update({ where: { id: turbo.id }, data: { enabled: false } })
    const refused = await submit({ prompt: 'a cat', speed: 'turbo' })
    expect([refused.status, refused.body.errMessage]).toEqual([400, '所选模型不支持该速度模式'])
    // Offered by an enabled model that cannot take the task (no price for it): refused by routing, nothing charged.
    await db().aiModel.update({ where: { id: turbo.id }, data: { enabled: true, prices: {} } })
    const unpriced = await submit({ prompt: 'a cat', speed: 'turbo' })
    expect([unpriced.status, unpriced.body.errMessage]).toEqual([400, '所选模型不支持该速度模式'])
    expect(await db().task.count({ where: { userId: user.id } })).toBe(3)
    await drainQueue()
  })

  it('a pooled model: imagines go to the pool, but a button runs on the proxy that holds its parent', async () => {
    fake.set({ stepMs: 10 })
    const model = await mjModel({}, { pool: 'mj-pool' })
    const { user, task: t } = await imagine(model.id)
    expect((await task(t.id)).poolKey).toBe('mj-pool')
    await drainQueue()
    const pressed = await press(user.token, t.id, { customId: at(await buttonsOf(t.id), 5).customId })
    expect(await task(pressed.body.data.id)).toMatchObject({ poolKey: null, modelId: model.id, type: 'MJ_IMG2IMG', chargedPoints: 6 })
    await drainQueue()
  })
})

/**
 * The trees as they were answered before (Prisma for the roots and the total, a recursive
 * query for the ids, Prisma for the rows), less what the owner deleted and what was made from it.
 */
async function previousTrees(userId: string, page: number, pageSize: number) {
  type Node = TaskView & { children: Node[] }
  const where = { userId, type: { in: ['MJ_TEXT2IMG' as const, 'MJ_IMG2IMG' as const] }, parentId: null, deletedAt: null }
  const [roots, total] = await Promise.all([
    db().task.findMany({ where, select: TASK_VIEW_SELECT, orderBy: { createdAt: 'desc' }, skip: (page - 1) * pageSize, take: pageSize }),
    db().task.count({ where }),
  ])
  if (roots.length === 0) return { list: [], total }
  const descendants = await db().$queryRaw<{ id: string }[]>`
    WITH RECURSIVE tree AS (
      SELECT t."id" FROM "Task" t WHERE t."parentId" = ANY(${roots.map((r) => r.id)}) AND t."userId" = ${userId} AND t."deletedAt" IS NULL
      UNION
      SELECT c."id" FROM "Task" c JOIN tree ON c."parentId" = tree."id" WHERE c."userId" = ${userId} AND c."deletedAt" IS NULL
    )
    SELECT "id" FROM tree`
  const rows = descendants.length
    ? await db().task.findMany({ where: { id: { in: descendants.map((d) => d.id) } }, select: TASK_VIEW_SELECT, orderBy: { createdAt: 'asc' } })
    : []
  const nodes = new Map<string, Node>()
  for (const row of [...roots, ...rows]) nodes.set(row.id, { ...toTaskView(row), children: [] })
  for (const row of rows) nodes.get(row.parentId!)?.children.push(nodes.get(row.id)!)
  return { list: roots.map((r) => nodes.get(r.id)!), total }
}

describe('GET /api/mj/tasks', () => {
  it('answers the trees the Prisma queries it replaced answered, key for key: every page, past the end', async () => {
    const model = await mjModel()
    const user = await createUser()
    const stranger = await createUser()
    const start = Date.UTC(2026, 2, 3, 4, 5, 6, 789)
    let n = 0
    // Finished tasks only: nothing here for a later drain to run.
    const make = async (data: { userId?: string; type?: 'MJ_TEXT2IMG' | 'MJ_IMG2IMG' | 'SD_TEXT2IMG'; parentId?: string; deletedAt?: Date }) => {
      const i = n++
      const status = (['SUCCESS', 'FAIL', 'CANCELED'] as const)[i % 3]!
      const t = await db().task.create({
        data: {
          userId: user.id,
          type: data.parentId ? 'MJ_IMG2IMG' : 'MJ_TEXT2IMG',
          status,
          stage: 'DONE',
          progress: 100,
          params: { prompt: `猫 "${i}"`, mjAction: 'IMAGINE' },
          modelId: model.id,
          priceSnapshot: {},
          chargedPoints: i % 9,
          deadlineAt: new Date(start),
          action: data.parentId ? `MJ::JOB::upsample::${i}` : 'imagine',
          buttons: status === 'SUCCESS' ? [{ customId: `MJ::U1::${i}`, label: 'U1', emoji: '' }] : [],
          results: status === 'SUCCESS' ? [{ url: `/files/results/${i}.png`, thumbUrl: `/files/results/${i}.webp`, width: 256, height: 256 }] : [],
          errorMessage: status === 'FAIL' ? '生成失败，积分已退还' : null,
          refundedAt: status === 'SUCCESS' ? null : new Date(start + i * 1000 + 500),
          finishedAt: new Date(start + i * 1000 + 900),
          createdAt: new Date(start + i * 1000),
          ...data,
        },
      })
      if (status === 'SUCCESS' && i % 2 === 0)
        await db().wallWork.create({
          data: {
            taskId: t.id,
            userId: t.userId,
            status: 'APPROVED',
            featured: i % 4 === 0,
            modelType: 'MID_JOURNEY',
            modelName: 'MJ',
            imageUrl: '/a.png',
            thumbUrl: '/a.webp',
            width: 256,
            height: 256,
            prompt: '猫',
          },
        })
      return t
    }
    const deleted: string[] = []
    for (let r = 0; r < 7; r++) {
      const root = await make({ type: r % 3 === 1 ? 'MJ_IMG2IMG' : 'MJ_TEXT2IMG', deletedAt: r === 4 ? new Date(start) : undefined })
      if (r === 4) deleted.push(root.id)
      if (r % 2) continue
      const a = await make({ parentId: root.id })
      const b = await make({ parentId: root.id, deletedAt: r === 2 ? new Date(start) : undefined })
      await make({ parentId: a.id })
      const c = await make({ parentId: b.id })
      const d = await make({ parentId: c.id })
      if (r === 2) deleted.push(b.id, c.id, d.id)
      await make({ parentId: a.id })
      // Not the owner's: never in the tree.
      await make({ parentId: a.id, userId: stranger.id })
    }
    await make({ type: 'SD_TEXT2IMG' })
    await make({ userId: stranger.id })

    let compared = 0
    for (const pageSize of [2, 3, 20])
      for (let page = 1; page <= Math.ceil(7 / pageSize) + 1; page++) {
        const before = JSON.stringify(await previousTrees(user.id, page, pageSize))
        expect(JSON.stringify(await listMjTaskTrees(user.id, { page, pageSize })), `${page}/${pageSize}`).toBe(before)
        compared++
      }
    expect(compared).toBe(11)
    const trees = await callRoute(mjTasksRoute.GET, { token: user.token, query: { page: 1, pageSize: 20 } })
    expect(JSON.stringify(trees.body.data)).toBe(JSON.stringify(await previousTrees(user.id, 1, 20)))
    expect(trees.body.data.list[0].children[0].children).toHaveLength(2)
    // A deleted root leaves with its tree; a deleted child with what was made from it.
    expect(trees.body.data.total).toBe(6)
    const shown = JSON.stringify(trees.body.data)
    expect(deleted.filter((id) => shown.includes(id))).toEqual([])
    expect((await callRoute(mjTasksRoute.GET, { token: (await createUser()).token })).body.data).toEqual({ list: [], total: 0 })
  })
})

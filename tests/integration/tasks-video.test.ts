// Video tasks end to end on the queue: submit → RUNNING with progress → SUCCESS with a
// stored, labelled MP4 and a poster (served with ranges); priced per clip and per second;
// a provider failure refunds once; a refusal fails at once with the provider's message;
// cancel reaches the provider; a worker dying after the provider accepted never resubmits;
// the model’s deadline, kept when the task starts (a picture’s is cut to 10 minutes); a
// user’s own result as first frame; the demo renderer.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as filesRoute from '@/app/files/[...key]/route'
import * as cancelRoute from '@/app/api/tasks/[id]/cancel/route'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { isMp4 } from '@/lib/generation/backends/video-follow'
import { probeVideo, readVideoLabel } from '@/lib/generation/video-file'
import { putFile, readStoredFile } from '@/lib/storage/storage'
import { claimTask, RUN_TIMEOUT_MS } from '@/lib/tasks/claim-task'
import { runTask } from '@/lib/tasks/run-task'
import { sweepTasks } from '@/lib/tasks/sweep-tasks'
import { startFakeArk, type FakeArk } from '../fakes/ark-video'
import { startFakeDashscope, type FakeDashscope } from '../fakes/dashscope-video'
import { solidPng } from '../fakes/jobs'
import { startFakeOpenaiVideos, type FakeOpenaiVideos } from '../fakes/openai-videos'
import { CONTENT_REFUSAL } from '../fakes/video-jobs'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'

let ark: FakeArk
let dashscope: FakeDashscope
let openai: FakeOpenaiVideos
beforeAll(async () => {
  ;[ark, dashscope, openai] = await Promise.all([startFakeArk(), startFakeDashscope(), startFakeOpenaiVideos()])
})
afterAll(async () => {
  await Promise.all([ark.close(), dashscope.close(), openai.close()])
})

const PRICES = { VIDEO_TEXT2VIDEO: 10, VIDEO_IMG2VIDEO: 12, VIDEO_PER_SECOND: 2 }
const FAST = { firstPollMs: 5, maxPollMs: 30 }

function videoModel(name: string, backend: string, endpoint: string, secret: string | null, options: Record<string, unknown> = {}) {
  return createModel({
    name,
    type: 'VIDEO',
    backend,
    endpoint,
    secretEnc: secret,
    prices: PRICES,
    options: { model: 'video-1', durations: [5, 10], resolutions: ['480p', '720p'], ...FAST, ...options },
  })
}

async function submit(token: string, modelId: string, params: Record<string, unknown>, type = 'VIDEO_TEXT2VIDEO') {
  return callRoute(tasksRoute.POST, {
    token,
    body: { type, modelId, params: { prompt: '海边奔跑的小狗', durationSec: 5, ratio: '16:9', resolution: '720p', ...params } },
  })
}

const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const refunds = (id: string) => db().ledgerEntry.count({ where: { reference: `task:${id}:refund` } })
type Video = { url: string; posterUrl: string; downloadUrl: string; durationSec: number; width: number; height: number }

describe('video tasks', () => {
  it('Ark: submit → RUNNING with progress → SUCCESS with a stored, labelled MP4 and a poster; charged per clip and per second', async () => {
    ark.set({ behaviour: 'slow', slowPolls: 40 })
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ark', 'ark-video', ark.url, sealModelSecret('ark-test'))
    const user = await createUser({ points: 100 })
    const res = await submit(user.token, model.id, {})
    expect(res.status).toBe(200)
    const id = (res.body.data as { id: string }).id
    expect(await points(user.id)).toBe(100 - (10 + 2 * 5))
    const running = drainQueue()
    await expect.poll(async () => (await task(id)).stage, { timeout: 10_000 }).toBe('RUNNING')
    await expect.poll(async () => (await task(id)).progress, { timeout: 10_000 }).toBeGreaterThan(0)
    await running
    const done = await callRoute(taskRoute.GET, { token: user.token, params: { id } })
    expect(done.body.data).toMatchObject({ status: 'SUCCESS', progress: 100, results: [] })
    const [video] = done.body.data.videos as Video[]
    expect(video).toMatchObject({ durationSec: 1, width: 320, height: 240 })
    expect(video!.url).toMatch(/\/files\/results\/\d{6}\/.+-0-[A-Za-z0-9]{12}\.mp4$/)
    expect(video!.downloadUrl).toContain(`?download=${id}-1.mp4`)
    const bytes = (await readStoredFile(video!.url.replace('/files/', '')))!
    expect(isMp4(bytes)).toBe(true)
    const dir = await mkdtemp(path.join(tmpdir(), 'video-test-'))
    try {
      await writeFile(path.join(dir, 'v.mp4'), bytes)
      expect(JSON.parse((await readVideoLabel(path.join(dir, 'v.mp4')))!)).toMatchObject({ AIGC: { Label: '1', ProduceID: id } })
      expect((await probeVideo(path.join(dir, 'v.mp4'))).hasVideo).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    // Ark offered its last frame: that is the poster.
    expect((await sharp((await readStoredFile(video!.posterUrl.replace('/files/', '')))!).metadata()).format).toBe('webp')
    expect(ark.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body).toMatchObject({ model: 'video-1', duration: 5, resolution: '720p' })

    // Served with ranges, so the player can seek.
    const key = video!.url.replace('/files/', '').split('/')
    const ranged = await filesRoute.GET(new Request(`http://x${video!.url}`, { headers: { range: 'bytes=0-99' } }), { params: Promise.resolve({ key }) })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`)
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true)
    const whole = await filesRoute.GET(new Request(`http://x${video!.url}`), { params: Promise.resolve({ key }) })
    expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual([200, 'video/mp4', 'bytes'])
    const beyond = await filesRoute.GET(new Request(`http://x${video!.url}`, { headers: { range: `bytes=${bytes.length}-` } }), {
      params: Promise.resolve({ key }),
    })
    expect(beyond.status).toBe(416)
  })

  it('DashScope failing the job: FAIL with its reason, refunded once, never submitted twice', async () => {
    dashscope.set({ behaviour: 'failing' })
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ds-fail', 'dashscope-video', dashscope.url, sealModelSecret('sk-dashscope'))
    const user = await createUser({ points: 100 })
    const before = dashscope.requests('/api/v1/services/aigc/video-generation/video-synthesis').length
    const id = ((await submit(user.token, model.id, { durationSec: 10 })).body.data as { id: string }).id
    await drainQueue()
    const failed = await task(id)
    expect(failed).toMatchObject({ status: 'FAIL', errorCode: 'UPSTREAM_FAILED', attempts: 1 })
    expect(failed.errorMessage).toMatch(/^生成失败：Internal error/)
    expect(dashscope.requests('/api/v1/services/aigc/video-generation/video-synthesis').length - before).toBe(1)
    expect(await refunds(id)).toBe(1)
    expect(await points(user.id)).toBe(100)
    await expectLedgerInvariants()
  })

  it('DashScope text to video: a ratio and resolution Wan has no size for is refused at submit, nothing charged', async () => {
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ds-sizes', 'dashscope-video', dashscope.url, sealModelSecret('sk-dashscope'), { ratios: ['16:9', '4:3', '21:9'] })
    const user = await createUser({ points: 100 })
    for (const [ratio, resolution] of [
      ['21:9', '720p'],
      ['4:3', '480p'],
    ] as const) {
      const refused = await submit(user.token, model.id, { ratio, resolution })
      expect([refused.status, refused.body.errMessage]).toEqual([400, `所选模型不支持 ${ratio} 比例的 ${resolution} 视频，请换一个比例或清晰度`])
    }
    expect(await points(user.id)).toBe(100)
    expect((await submit(user.token, model.id, { ratio: '4:3', resolution: '720p' })).status).toBe(200)
    await drainQueue()
  })

  it('a refusal fails at once with the provider message and a refund (at submit, and during the job)', async () => {
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('oa-refuse', 'openai-video', openai.url, sealModelSecret('sk-video'))
    const user = await createUser({ points: 100 })
    openai.set({ behaviour: 'refuse-submit' })
    const first = ((await submit(user.token, model.id, {})).body.data as { id: string }).id
    await drainQueue()
    expect(await task(first)).toMatchObject({ status: 'FAIL', errorCode: 'REJECTED', attempts: 1 })
    expect((await task(first)).errorMessage).toBe('内容未通过审核：Your request was blocked by our moderation system.，积分已退还')
    openai.set({ behaviour: 'refuse-task' })
    const second = ((await submit(user.token, model.id, {})).body.data as { id: string }).id
    await drainQueue()
    expect(await task(second)).toMatchObject({ status: 'FAIL', errorCode: 'REJECTED', attempts: 1 })
    expect((await task(second)).errorMessage).toContain(CONTENT_REFUSAL)
    expect([await refunds(first), await refunds(second), await points(user.id)]).toEqual([1, 1, 100])
    openai.set({ behaviour: 'normal' })
  })

  it('cancelling a running clip reaches the provider; refunded once', async () => {
    ark.set({ behaviour: 'slow', slowPolls: 100_000 })
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ark-cancel', 'ark-video', ark.url, sealModelSecret('ark-test'), { firstPollMs: 50, maxPollMs: 200 })
    const { startWorker } = await import('@/lib/worker/start-worker')
    const worker = startWorker()
    try {
      const user = await createUser({ points: 100 })
      const id = ((await submit(user.token, model.id, {})).body.data as { id: string }).id
      await expect.poll(async () => (await task(id)).stage, { timeout: 10_000 }).toBe('RUNNING')
      const { upstreamId } = await task(id)
      expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id } })).status).toBe(200)
      await expect.poll(() => ark.requests(`/api/v3/contents/generations/tasks/${upstreamId}`, 'DELETE').length, { timeout: 5_000 }).toBe(1)
      expect(await task(id)).toMatchObject({ status: 'CANCELED', videos: [] })
      expect([await refunds(id), await points(user.id)]).toEqual([1, 100])
    } finally {
      await worker.stop()
      ark.set({ behaviour: 'normal' })
    }
  })

  it('a clip no worker follows (its worker died, the others are busy): the cancel, or the deadline, still reaches the provider', async () => {
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ark-unfollowed', 'ark-video', ark.url, sealModelSecret('ark-test'))
    const user = await createUser({ points: 100 })
    // Accepted by Ark; its worker died and the sweeper left the job for the next free worker.
    const accepted = async (upstreamId: string, lease: object) => {
      const id = ((await submit(user.token, model.id, {})).body.data as { id: string }).id
      await db().task.update({ where: { id }, data: { stage: 'RUNNING', upstreamId, attempts: 1, ...lease } })
      return id
    }
    const deleted = (upstreamId: string) => ark.requests(`/api/v3/contents/generations/tasks/${upstreamId}`, 'DELETE').length

    const cancelled = await accepted('cgt-unfollowed-1', { leaseOwner: null, leaseExpiresAt: null })
    expect((await callRoute(cancelRoute.POST, { token: user.token, params: { id: cancelled } })).status).toBe(200)
    await expect.poll(() => deleted('cgt-unfollowed-1'), { timeout: 5_000 }).toBe(1)

    const overdue = await accepted('cgt-unfollowed-2', { leaseOwner: 'gone', leaseExpiresAt: new Date(Date.now() - 1_000) })
    await db().task.update({ where: { id: overdue }, data: { deadlineAt: new Date(Date.now() - 1) } })
    await sweepTasks()
    expect(await task(overdue)).toMatchObject({ status: 'FAIL', errorCode: 'TIMEOUT' })
    expect(deleted('cgt-unfollowed-2')).toBe(1)
    expect([await refunds(cancelled), await refunds(overdue), await points(user.id)]).toEqual([1, 1, 100])
    await expectLedgerInvariants()
  })

  it('image to video from an upload or one of the user’s results; the frame reaches the provider inline', async () => {
    dashscope.set({ behaviour: 'normal' })
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ds-i2v', 'dashscope-video', dashscope.url, sealModelSecret('sk-dashscope'))
    const user = await createUser({ points: 100 })
    const png = await solidPng(64, 48, '#22aa44')
    const storageKey = `uploads/202611/frame-${Date.now()}.png`
    await putFile(storageKey, png)
    const upload = await db().uploadedImage.create({
      data: { userId: user.id, url: `/files/${storageKey}`, storageKey, width: 64, height: 48, bytes: png.length },
    })
    const fromUpload = ((await submit(user.token, model.id, { imageId: upload.id }, 'VIDEO_IMG2VIDEO')).body.data as { id: string }).id
    await drainQueue()
    expect(await task(fromUpload)).toMatchObject({ status: 'SUCCESS' })
    const sent = dashscope.requests('/api/v1/services/aigc/video-generation/video-synthesis').at(-1)!.body as { input: { img_url: string } }
    expect(sent.input.img_url).toBe(`data:image/png;base64,${png.toString('base64')}`)
    expect(await points(user.id)).toBe(100 - (12 + 10))

    // One of the user's finished image tasks, by task:<id>:<n>.
    const picture = await db().task.create({
      data: {
        userId: user.id,
        type: 'SD_TEXT2IMG',
        status: 'SUCCESS',
        params: {},
        modelId: model.id,
        priceSnapshot: {},
        chargedPoints: 0,
        deadlineAt: new Date(),
        results: [{ url: `/files/${storageKey}`, downloadUrl: `/files/${storageKey}?download=a.png`, thumbUrl: '', width: 64, height: 48, seed: 1 }],
      },
    })
    const fromResult = await submit(user.token, model.id, { imageId: `task:${picture.id}:0` }, 'VIDEO_IMG2VIDEO')
    expect(fromResult.status).toBe(200)
    await drainQueue()
    expect(await task((fromResult.body.data as { id: string }).id)).toMatchObject({ status: 'SUCCESS' })

    // Someone else's result, a result that is not there, and a length the model does not offer: 4xx, nothing charged.
    const other = await createUser({ points: 100 })
    expect((await submit(other.token, model.id, { imageId: `task:${picture.id}:0` }, 'VIDEO_IMG2VIDEO')).status).toBe(404)
    expect((await submit(user.token, model.id, { imageId: `task:${picture.id}:3` }, 'VIDEO_IMG2VIDEO')).status).toBe(404)
    const tooLong = await submit(other.token, model.id, { durationSec: 8 })
    expect([tooLong.status, tooLong.body.errMessage]).toEqual([400, '该模型可选的时长为 5、10 秒'])
    const noLast = await submit(other.token, model.id, { imageId: upload.id, lastImageId: upload.id }, 'VIDEO_IMG2VIDEO')
    expect(noLast.status).toBe(404) // the upload is not theirs
    expect(await points(other.id)).toBe(100)
  })

  it('first and last frame: both reach Ark inline with their roles; a model without last frames refuses one, nothing charged', async () => {
    ark.set({ behaviour: 'normal' })
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const both = await videoModel('ark-frames', 'ark-video', ark.url, sealModelSecret('ark-test'), { lastFrame: true })
    const firstOnly = await videoModel('ark-first', 'ark-video', ark.url, sealModelSecret('ark-test'))
    const user = await createUser({ points: 100 })
    const frames = []
    for (const [name, colour] of [
      ['first', '#2244aa'],
      ['last', '#aa4422'],
    ] as const) {
      const png = await solidPng(64, 48, colour)
      const storageKey = `uploads/202611/${name}-${Date.now()}.png`
      await putFile(storageKey, png)
      const upload = await db().uploadedImage.create({
        data: { userId: user.id, url: `/files/${storageKey}`, storageKey, width: 64, height: 48, bytes: png.length },
      })
      frames.push({ id: upload.id, png })
    }
    const [first, last] = frames as [(typeof frames)[0], (typeof frames)[0]]

    const refused = await submit(user.token, firstOnly.id, { imageId: first.id, lastImageId: last.id }, 'VIDEO_IMG2VIDEO')
    expect([refused.status, refused.body.errMessage]).toEqual([400, '该模型不支持指定尾帧'])
    expect(await points(user.id)).toBe(100)

    const res = await submit(user.token, both.id, { imageId: first.id, lastImageId: last.id }, 'VIDEO_IMG2VIDEO')
    expect(res.status).toBe(200)
    const id = (res.body.data as { id: string }).id
    await drainQueue()
    expect(await task(id)).toMatchObject({ status: 'SUCCESS' })
    const sent = ark.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body as {
      content: Array<{ type: string; role?: string; image_url?: { url: string } }>
    }
    expect(sent.content.slice(1)).toEqual([
      { type: 'image_url', role: 'first_frame', image_url: { url: `data:image/png;base64,${first.png.toString('base64')}` } },
      { type: 'image_url', role: 'last_frame', image_url: { url: `data:image/png;base64,${last.png.toString('base64')}` } },
    ])
    expect(await points(user.id)).toBe(100 - (12 + 10))
  })

  it('a worker dies after Ark accepted the clip: another resumes polling it and never submits twice; the model’s deadline applies', async () => {
    ark.set({ behaviour: 'slow', slowPolls: 6 })
    const { sealModelSecret } = await import('@/lib/models/model-secret')
    const model = await videoModel('ark-resume', 'ark-video', ark.url, sealModelSecret('ark-test'), { deadlineMinutes: 45 })
    const user = await createUser({ points: 100 })
    const id = ((await submit(user.token, model.id, {})).body.data as { id: string }).id
    const created = await task(id)
    expect(Math.round((created.deadlineAt.getTime() - created.createdAt.getTime()) / 60_000)).toBe(45)
    const before = ark.requests('/api/v3/contents/generations/tasks', 'POST').length
    const claimed = (await claimTask('w-video-dies'))!
    // The start does not cut the model's deadline to the 10 minutes a picture gets.
    const started = await task(id)
    expect(started.startedAt).not.toBeNull()
    expect(Math.round((started.deadlineAt.getTime() - started.createdAt.getTime()) / 60_000)).toBe(45)
    const dying = new AbortController()
    const first = runTask(claimed, 'w-video-dies', dying.signal)
    await expect.poll(async () => (await task(id)).upstreamId, { timeout: 5_000 }).toMatch(/^cgt-/)
    // The worker process dies: its run stops and nothing renews the lease.
    await db().task.update({ where: { id }, data: { leaseOwner: 'gone', leaseExpiresAt: new Date(Date.now() - 1) } })
    dying.abort()
    await first
    await sweepTasks()
    expect(await task(id)).toMatchObject({ status: 'PENDING', stage: 'RUNNING', leaseOwner: null })
    await drainQueue('w-video-survivor')
    expect(await task(id)).toMatchObject({ status: 'SUCCESS' })
    expect(ark.requests('/api/v3/contents/generations/tasks', 'POST').length - before).toBe(1)
    expect(await points(user.id)).toBe(100 - 20)
  })

  it('a picture task still has 10 minutes from its start (RUN_TIMEOUT_MS), within its 30 from submission', async () => {
    const model = await createModel({ name: 'picture-deadline' })
    const user = await createUser({ points: 100 })
    const res = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '雪山', width: 256, height: 256, count: 1 } },
    })
    const id = (res.body.data as { id: string }).id
    const created = await task(id)
    expect(Math.round((created.deadlineAt.getTime() - created.createdAt.getTime()) / 60_000)).toBe(30)
    const claimed = (await claimTask('w-picture'))!
    expect(claimed.id).toBe(id)
    const started = await task(id)
    expect(Math.round((started.deadlineAt.getTime() - started.startedAt!.getTime()) / 60_000)).toBe(RUN_TIMEOUT_MS / 60_000)
    await runTask(claimed, 'w-picture', new AbortController().signal)
    expect(await task(id)).toMatchObject({ status: 'SUCCESS' })
  })

  it('the demo renderer makes a labelled clip out of the box', async () => {
    const model = await createModel({ name: 'demo-video', type: 'VIDEO', prices: { VIDEO_TEXT2VIDEO: 0 }, options: { stepMs: 0 } })
    const user = await createUser({ points: 0 })
    const id = ((await submit(user.token, model.id, {})).body.data as { id: string }).id
    await drainQueue()
    const done = await task(id)
    expect(done.status).toBe('SUCCESS')
    const [video] = done.videos as Video[]
    expect(video).toMatchObject({ width: 640, height: 360, durationSec: 3 })
  })
})

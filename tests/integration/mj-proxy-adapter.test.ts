// The Midjourney proxy adapter against the fake proxy: imagine/blend/describe/actions, the
// submit codes (1, 21, 22 accepted; 23 busy; 24 banned; 3, 4 refused), MODAL actions through
// /submit/modal, progress and previews while polling, batched list-by-condition, nudges,
// failures, lost tasks, abort, interrupt, test().
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createMjProxyAdapter } from '@/lib/generation/backends/mj-proxy'
import type { BackendConfig, GenerationJob, MjJob, RunContext } from '@/lib/generation/backends/types'
import { startServer } from '../fakes/common'
import { startFakeMjProxy, type FakeMj } from '../fakes/mj-proxy'
import { deadEndpoint, expectFailure, expectRising, leftHalfMask, recordingContext, solidPng, testJob } from '../fakes/jobs'
import { at } from '../helpers/present'

let fake: FakeMj
beforeAll(async () => {
  fake = await startFakeMjProxy({ secret: 'mj-s3cret' })
})
afterAll(() => fake.close())
beforeEach(() => fake.set({ secret: 'mj-s3cret', stepMs: 10, coreSize: 3, queueSize: 10, notify: 'normal', listByCondition: true, legacy: false }))

let pollIntervalMs = 20
const adapterFor = (config: Partial<BackendConfig> = {}) =>
  createMjProxyAdapter({ endpoint: fake.url, secret: 'mj-s3cret', checkpoint: null, options: { pollIntervalMs }, ...config })

function mjJob(mj: Partial<MjJob>, overrides: Partial<GenerationJob> = {}): GenerationJob {
  return testJob({
    mj: {
      action: 'IMAGINE',
      prompt: 'an orange cat --ar 3:2',
      images: [],
      dimensions: null,
      parentUpstreamId: null,
      customId: null,
      mask: null,
      notifyHook: null,
      ...mj,
    },
    ...overrides,
  })
}

async function run(job: GenerationJob, ctx: RunContext = recordingContext().ctx, config?: Partial<BackendConfig>) {
  const adapter = adapterFor(config)
  const submitted = await adapter.submit(job, ctx)
  if (submitted.kind !== 'accepted') throw new Error('Midjourney jobs are accepted, not completed')
  return { submitted, outcome: await adapter.wait!(submitted.upstreamId, job, ctx) }
}

/** A finished imagine, to press its buttons. */
async function finishedGrid() {
  const job = mjJob({})
  const { submitted, outcome } = await run(job)
  return { id: (submitted as { upstreamId: string }).upstreamId, buttons: outcome.buttons! }
}

const pixel = async (png: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const i = (y * info.width + x) * 3
  return (data.readUInt8(i) << 16) | (data.readUInt8(i + 1) << 8) | data.readUInt8(i + 2)
}

describe('mj-proxy adapter', () => {
  it('imagine: accepted under a string id, progress from "NN%" strings, previews, then the grid and its buttons', async () => {
    fake.set({ stepMs: 40 })
    const previews: Buffer[] = []
    const { ctx, progress } = recordingContext()
    ctx.onPreview = (image) => previews.push(image)
    const job = mjJob({ notifyHook: 'http://127.0.0.1:9/hook' })
    const { submitted, outcome } = await run(job, ctx)
    const id = (submitted as { upstreamId: string }).upstreamId
    expect(id).toMatch(/^\d{16}$/)
    expect(fake.bodies('/mj/submit/imagine').at(-1)).toMatchObject({
      prompt: 'an orange cat --ar 3:2',
      base64Array: [],
      botType: 'MID_JOURNEY',
      state: job.taskId,
      notifyHook: 'http://127.0.0.1:9/hook',
    })
    expect(fake.calls.filter((c) => c.path.startsWith('/mj/')).every((c) => c.headers['mj-api-secret'] === 'mj-s3cret')).toBe(true)
    expectRising(progress)
    expect(progress.filter((p) => p > 0 && p < 100).every((p) => [15, 31, 46, 62, 78, 93].includes(p))).toBe(true)
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true)
    expect(progress.at(-1)).toBe(100)
    await expect.poll(() => previews.length).toBeGreaterThan(0)
    expect(outcome.images).toHaveLength(1)
    const meta = await sharp(at(outcome.images, 0).bytes).metadata()
    expect([meta.width, meta.height]).toEqual([256, 256])
    expect(await pixel(at(outcome.images, 0).bytes, 200, 60)).toBe(fake.coloursOf(id)[1])
    expect(outcome.buttons!.map((b) => b.label || b.emoji)).toEqual(['U1', 'U2', 'U3', 'U4', '🔄', 'V1', 'V2', 'V3', 'V4'])
    expect(at(outcome.buttons!, 1).customId).toMatch(/^MJ::JOB::upsample::2::[0-9a-f]{32}$/)
  })

  it('image prompts go as data URLs in base64Array', async () => {
    await run(mjJob({ images: [await solidPng(64, 64, '#ff0000'), await solidPng(32, 32)] }))
    const sent = fake.bodies('/mj/submit/imagine').at(-1)!.base64Array as string[]
    expect(sent).toHaveLength(2)
    expect(sent[0]).toMatch(/^data:image\/png;base64,iVBOR/)
  })

  it('a button: /submit/action with the parent id and customId; U2 gives the upscaled second cell', async () => {
    const parent = await finishedGrid()
    const u2 = parent.buttons.find((b) => b.label === 'U2')!
    const { submitted, outcome } = await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: u2.customId }))
    expect(fake.bodies('/mj/submit/action').at(-1)).toMatchObject({ taskId: parent.id, customId: u2.customId })
    const id = (submitted as { upstreamId: string }).upstreamId
    expect(await pixel(at(outcome.images, 0).bytes, 10, 10)).toBe(fake.coloursOf(parent.id)[1])
    expect(fake.coloursOf(id)).toEqual([fake.coloursOf(parent.id)[1]])
    expect(outcome.buttons!.some((b) => b.customId.startsWith('MJ::Inpaint::'))).toBe(true)
  })

  it('code 21 for a repeated U is the existing task, not a modal', async () => {
    const parent = await finishedGrid()
    const u1 = at(parent.buttons, 0).customId
    const first = await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: u1 }))
    const again = await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: u1 }))
    expect(again.submitted).toMatchObject({ upstreamId: (first.submitted as { upstreamId: string }).upstreamId, log: { code: 21 } })
    expect(fake.bodies('/mj/submit/modal')).toHaveLength(0)
  })

  it('Vary (Region): code 21 + MODAL, then /submit/modal with the prompt and the mask as a data URL', async () => {
    const parent = await finishedGrid()
    const upscaled = await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: at(parent.buttons, 0).customId }))
    const upscaledId = (upscaled.submitted as { upstreamId: string }).upstreamId
    const region = upscaled.outcome.buttons!.find((b) => b.customId.startsWith('MJ::Inpaint::'))!
    const mask = await leftHalfMask(256, 256)
    const { submitted, outcome } = await run(mjJob({ action: 'ACTION', prompt: 'a red scarf', parentUpstreamId: upscaledId, customId: region.customId, mask }))
    const id = (submitted as { upstreamId: string }).upstreamId
    expect(fake.bodies('/mj/submit/modal').at(-1)).toMatchObject({
      taskId: id,
      prompt: 'a red scarf',
      maskBase64: expect.stringMatching(/^data:image\/png;base64,/),
    })
    expect(fake.maskOf(id)!.equals(mask)).toBe(true)
    expect(fake.task(id)).toMatchObject({ status: 'SUCCESS', prompt: 'a red scarf', action: 'VARIATION' })
    expect(outcome.buttons).toHaveLength(9)
  })

  it('Custom Zoom: the modal gets the prompt with --zoom; without it the proxy refuses (code 4) and nothing is retried', async () => {
    const parent = await finishedGrid()
    const upscaled = await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: at(parent.buttons, 2).customId }))
    const zoom = upscaled.outcome.buttons!.find((b) => b.customId.startsWith('MJ::CustomZoom::'))!
    const upscaledId = (upscaled.submitted as { upstreamId: string }).upstreamId
    await run(mjJob({ action: 'ACTION', prompt: 'wide street --zoom 1.5', parentUpstreamId: upscaledId, customId: zoom.customId }))
    expect(fake.bodies('/mj/submit/modal').at(-1)).toMatchObject({ prompt: 'wide street --zoom 1.5' })
    await expectFailure(
      adapterFor().submit(mjJob({ action: 'ACTION', prompt: 'no zoom here', parentUpstreamId: upscaledId, customId: zoom.customId }), recordingContext().ctx),
      'REJECTED',
      false,
      /--zoom/,
    )
  })

  it('blend sends 2-5 images with dimensions; describe sends one and returns the four suggested prompts', async () => {
    const a = await solidPng(64, 64, '#ff0000')
    const b = await solidPng(64, 64, '#00ff00')
    const blend = await run(mjJob({ action: 'BLEND', prompt: '', images: [a, b], dimensions: 'LANDSCAPE' }))
    expect(fake.bodies('/mj/submit/blend').at(-1)).toMatchObject({
      dimensions: 'LANDSCAPE',
      base64Array: [expect.stringMatching(/^data:image\/png/), expect.any(String)],
    })
    expect(blend.outcome.buttons).toHaveLength(9)
    const described = await run(mjJob({ action: 'DESCRIBE', prompt: '', images: [a] }))
    expect(fake.bodies('/mj/submit/describe').at(-1)!.base64).toMatch(/^data:image\/png;base64,/)
    expect(described.outcome.images).toEqual([])
    expect(described.outcome.prompts).toHaveLength(4)
    expect(described.outcome.prompts![0]).toBe('an orange cat sitting on a windowsill, soft morning light --ar 1:1')
    expect(described.outcome.buttons!.map((x) => x.customId)).toContain('MJ::Job::PicReader::2')
  })

  it('code 22: queued (NOT_START) is accepted and runs when a slot frees', async () => {
    fake.set({ coreSize: 1, stepMs: 15 })
    const adapter = adapterFor()
    const { ctx } = recordingContext()
    const first = await adapter.submit(mjJob({}), ctx)
    const second = await adapter.submit(mjJob({}), ctx)
    expect(second.log).toMatchObject({ code: 22, properties: { numberOfQueues: 0 } })
    const outcomes = await Promise.all([first, second].map((s) => adapter.wait!((s as { upstreamId: string }).upstreamId, mjJob({}), ctx)))
    expect(outcomes.map((o) => o.images.length)).toEqual([1, 1])
  })

  it('code 23 (queue full) is BUSY and retryable; 24 (banned) is REJECTED, not retryable, naming the word', async () => {
    fake.answerNext(23)
    await expectFailure(adapterFor().submit(mjJob({}), recordingContext().ctx), 'BUSY', true, /队列已满/)
    const banned = await expectFailure(adapterFor().submit(mjJob({ prompt: 'a badword cat' }), recordingContext().ctx), 'REJECTED', false, /badword/)
    expect(banned.userMessage).toBe('提示词包含 Midjourney 禁止的词「badword」，积分已退还，请修改后重试')
  })

  it('code 9 fails the job with a refund, not retried (only 1, 21, 22 are acceptance, only 23 is retried); 4 and 3 are refusals', async () => {
    fake.answerNext(9)
    const failed = await expectFailure(adapterFor().submit(mjJob({}), recordingContext().ctx), 'UPSTREAM_FAILED', false, /系统错误/)
    expect(failed.userMessage).toBe('Midjourney 服务出错：系统异常，积分已退还')
    await expectFailure(adapterFor().submit(mjJob({ prompt: '   ' }), recordingContext().ctx), 'REJECTED', false, /prompt不能为空/)
    const gone = await expectFailure(
      adapterFor().submit(mjJob({ action: 'ACTION', parentUpstreamId: '1700000000000999', customId: 'MJ::JOB::upsample::1::abc' }), recordingContext().ctx),
      'REJECTED',
      false,
    )
    expect(gone.userMessage).toMatch(/关联的任务不存在或已过期/)
  })

  it('a 404 without a submit result on a submit endpoint is a backend fault (retryable, fails over), not a refusal of the job', async () => {
    const wrongPath = adapterFor({ endpoint: `${fake.url}/not-the-proxy` })
    await expectFailure(wrongPath.submit(mjJob({}), recordingContext().ctx), 'BAD_RESPONSE', true, /没有 \/mj\/submit\/imagine 接口（HTTP 404）/)
    await expectFailure(
      wrongPath.submit(mjJob({ action: 'BLEND', images: [await solidPng(8, 8), await solidPng(8, 8)] }), recordingContext().ctx),
      'BAD_RESPONSE',
      true,
      /blend/,
    )
  })

  it('a 2xx submit answer that is not a submit result fails the task (not retried): the job may already be on Discord', async () => {
    const garbled = await startServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>网关</html>'))
    try {
      await expectFailure(adapterFor({ endpoint: garbled.url }).submit(mjJob({}), recordingContext().ctx), 'BAD_RESPONSE', false)
    } finally {
      await garbled.close()
    }
  })

  it('the niji option (--niji in the prompt) goes to the Niji bot; everything else to Midjourney', async () => {
    const adapter = adapterFor()
    await adapter.submit(mjJob({ prompt: 'a fox spirit --ar 2:3 --niji 6' }), recordingContext().ctx)
    expect(fake.bodies('/mj/submit/imagine').at(-1)).toMatchObject({ prompt: 'a fox spirit --ar 2:3 --niji 6', botType: 'NIJI_JOURNEY' })
    await adapter.submit(mjJob({ prompt: 'a nijigen poster --v 6.1' }), recordingContext().ctx)
    expect(fake.bodies('/mj/submit/imagine').at(-1)).toMatchObject({ botType: 'MID_JOURNEY' })
  })

  it('task ids sent as numbers: exact ones are kept as strings, ones JSON.parse rounded are a bad response', async () => {
    let answer = '{"code":1,"description":"ok","result":1732512345678123,"properties":{}}'
    const numeric = await startServer((req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(answer))
    try {
      const adapter = adapterFor({ endpoint: numeric.url })
      expect(await adapter.submit(mjJob({}), recordingContext().ctx)).toMatchObject({ kind: 'accepted', upstreamId: '1732512345678123' })
      // 19 digits, as trueai's snowflake ids: as a JS number this reads 1234567890123456800.
      answer = '{"code":1,"description":"ok","result":1234567890123456789,"properties":{}}'
      await expectFailure(adapter.submit(mjJob({}), recordingContext().ctx), 'BAD_RESPONSE', false, /超出精度/)
      answer = '[{"id":1234567890123456789,"status":"SUCCESS","imageUrl":"/x.png"}]'
      await expectFailure(adapter.wait!('1234567890123456789', mjJob({}), recordingContext().ctx), 'BAD_RESPONSE', false, /超出精度/)
    } finally {
      await numeric.close()
    }
  })

  it('a wrong secret is UNAUTHORIZED; an unreachable proxy is UNREACHABLE and retryable', async () => {
    await expectFailure(adapterFor({ secret: 'wrong' }).submit(mjJob({}), recordingContext().ctx), 'UNAUTHORIZED', false)
    await expectFailure(adapterFor({ endpoint: await deadEndpoint() }).submit(mjJob({}), recordingContext().ctx), 'UNREACHABLE', true)
  })

  it('FAILURE is UPSTREAM_FAILED with the failReason for the user', async () => {
    const error = await expectFailure(run(mjJob({ prompt: 'a cat __FAIL__' })), 'UPSTREAM_FAILED', false, /image filters/)
    expect(error.userMessage).toBe('生成失败：Request cancelled due to image filters，积分已退还')
  })

  it('waits of several jobs share one list-by-condition call per interval', async () => {
    pollIntervalMs = 150
    fake.set({ stepMs: 60 })
    try {
      const adapter = adapterFor()
      const { ctx } = recordingContext()
      const submitted = await Promise.all([1, 2, 3].map(() => adapter.submit(mjJob({}), ctx)))
      const before = fake.calls.length
      await Promise.all(submitted.map((s) => adapter.wait!((s as { upstreamId: string }).upstreamId, mjJob({}), ctx)))
      const polls = fake.calls.slice(before).filter((c) => c.path === '/mj/task/list-by-condition')
      expect(polls.some((c) => (c.body as { ids: string[] }).ids.length === 3)).toBe(true)
      expect(polls.length).toBeLessThan(12)
    } finally {
      pollIntervalMs = 20
    }
  })

  it('a nudge brings the next poll forward', async () => {
    fake.set({ stepMs: 20 })
    const listeners = new Set<() => void>()
    const { ctx } = recordingContext()
    ctx.onNudge = (listener) => (listeners.add(listener), () => listeners.delete(listener))
    const adapter = adapterFor({ options: { pollIntervalMs: 60_000 } })
    const job = mjJob({})
    const submitted = await adapter.submit(job, ctx)
    const waiting = adapter.wait!((submitted as { upstreamId: string }).upstreamId, job, ctx)
    const nudger = setInterval(() => listeners.forEach((l) => l()), 100)
    try {
      const started = Date.now()
      expect((await waiting).images).toHaveLength(1)
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      clearInterval(nudger)
    }
    expect(listeners.size).toBe(0)
  })

  it('a proxy without list-by-condition is polled task by task', async () => {
    fake.set({ listByCondition: false })
    const { outcome } = await run(mjJob({}), recordingContext().ctx, { endpoint: `${fake.url}/mj`, options: { pollIntervalMs: 25 } })
    expect(outcome.images).toHaveLength(1)
    expect(fake.calls.some((c) => /^\/mj\/task\/\d+\/fetch$/.test(c.path))).toBe(true)
  })

  it('the open novicezk build (no buttons, no /submit/action): U/V/reroll buttons are offered and go through /submit/change', async () => {
    fake.set({ legacy: true })
    try {
      const parent = await finishedGrid()
      expect(fake.task(parent.id)).not.toHaveProperty('buttons')
      expect(parent.buttons.map((b) => b.label || b.emoji)).toEqual(['U1', 'U2', 'U3', 'U4', '🔄', 'V1', 'V2', 'V3', 'V4'])
      const { outcome } = await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: at(parent.buttons, 2).customId }))
      expect(fake.bodies('/mj/submit/change').at(-1)).toMatchObject({ taskId: parent.id, action: 'UPSCALE', index: 3 })
      expect(await pixel(at(outcome.images, 0).bytes, 10, 10)).toBe(fake.coloursOf(parent.id)[2])
      expect(outcome.buttons).toEqual([])
      await run(mjJob({ action: 'ACTION', prompt: '', parentUpstreamId: parent.id, customId: at(parent.buttons, 4).customId }))
      expect(fake.bodies('/mj/submit/change').at(-1)).toEqual(expect.objectContaining({ action: 'REROLL' }))
      expect(fake.bodies('/mj/submit/change').at(-1)).not.toHaveProperty('index')
      await expectFailure(
        adapterFor().submit(mjJob({ action: 'ACTION', parentUpstreamId: parent.id, customId: `MJ::Outpaint::50::1::abc::SOLO` }), recordingContext().ctx),
        'REJECTED',
        false,
        /submit\/action/,
      )
    } finally {
      fake.set({ legacy: false })
    }
  })

  it('a job the proxy forgot is lost after a few polls (BACKEND_LOST)', async () => {
    const error = await expectFailure(adapterFor().wait!('1699999999999001', mjJob({}), recordingContext().ctx), 'UPSTREAM_FAILED', false, /不知道这个任务/)
    expect(error.detail).toEqual({ code: 'BACKEND_LOST' })
  })

  it('aborting the wait stops it (ABORTED); interrupt cancels the job on the proxy', async () => {
    const adapter = adapterFor()
    const stop = new AbortController()
    const { ctx } = recordingContext(stop.signal)
    const submitted = await adapter.submit(mjJob({ prompt: 'a cat __STUCK__' }), ctx)
    const id = (submitted as { upstreamId: string }).upstreamId
    const waiting = adapter.wait!(id, mjJob({}), ctx)
    setTimeout(() => stop.abort(), 100)
    await expectFailure(waiting, 'ABORTED', false)
    await adapter.interrupt!(id, mjJob({}))
    expect(fake.task(id)).toMatchObject({ status: 'FAILURE', failReason: '取消任务' })
  })

  it('test() says the connection works, and that a secret is wrong', async () => {
    expect(await adapterFor().test()).toMatchObject({ ok: true, message: '连接正常：Midjourney Proxy，1 个账号' })
    expect(await adapterFor({ secret: 'nope' }).test()).toMatchObject({ ok: false, detail: { code: 'UNAUTHORIZED' } })
  })

  it('test() of a proxy without list-by-condition falls back to a task fetch (it is polled task by task); with neither it fails', async () => {
    fake.set({ listByCondition: false })
    expect(await adapterFor().test()).toEqual({ ok: true, message: '连接正常：Midjourney Proxy，1 个账号（没有 list-by-condition，逐个查询任务）', detail: {} })
    expect(fake.calls.at(-2)).toMatchObject({ method: 'GET', path: '/mj/task/1000000000000000/fetch' })
    expect(await adapterFor({ endpoint: `${fake.url}/not-the-proxy` }).test()).toMatchObject({
      ok: false,
      message: expect.stringMatching(/list-by-condition 和 task\/fetch 都不存在/),
    })
    const html = await startServer(
      (req, res) =>
        void (req.url?.includes('list-by-condition') ? res.writeHead(404).end() : res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>')),
    )
    try {
      expect(await adapterFor({ endpoint: html.url }).test()).toMatchObject({ ok: false, detail: { code: 'BAD_RESPONSE' } })
    } finally {
      await html.close()
    }
  })
})

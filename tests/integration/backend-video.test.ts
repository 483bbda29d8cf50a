// The video adapters against fake Ark, DashScope and OpenAI /v1/videos servers: each
// provider's create call on the wire (prompt, length, ratio, resolution, input frames
// inline), polling to the finished clip with rising progress, the provider's poster,
// refusals at submit and during the job, failures, expired links, busy answers, and a
// cancel that reaches the provider.
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createArkVideoAdapter } from '@/lib/generation/backends/ark-video'
import { createDashscopeVideoAdapter } from '@/lib/generation/backends/dashscope-video'
import { createOpenaiVideoAdapter } from '@/lib/generation/backends/openai-video'
import type { AdapterFactory, BackendAdapter, GenerationJob, VideoJob } from '@/lib/generation/backends/types'
import { isMp4 } from '@/lib/generation/backends/video-follow'
import { startFakeArk } from '../fakes/ark-video'
import type { Multipart } from '../fakes/common'
import { startFakeDashscope } from '../fakes/dashscope-video'
import { expectFailure, expectRising, recordingContext, solidPng, testJob } from '../fakes/jobs'
import { startFakeOpenaiVideos } from '../fakes/openai-videos'
import { CONTENT_REFUSAL, UPSTREAM_FAILURE, type VideoJobStoreOptions } from '../fakes/video-jobs'

type Fake = { url: string; close(): Promise<void>; set(options: Partial<VideoJobStoreOptions>): void; store: { jobs: Map<string, { status: string }> } }

const PROVIDERS: { name: string; start: () => Promise<Fake>; factory: AdapterFactory; secret: string }[] = [
  { name: 'ark-video', start: () => startFakeArk(), factory: createArkVideoAdapter, secret: 'ark-test' },
  { name: 'dashscope-video', start: () => startFakeDashscope(), factory: createDashscopeVideoAdapter, secret: 'sk-dashscope' },
  { name: 'openai-video', start: () => startFakeOpenaiVideos(), factory: createOpenaiVideoAdapter, secret: 'sk-video' },
]

const FAST = { firstPollMs: 5, maxPollMs: 20 }

function videoJob(video: Partial<VideoJob> = {}, overrides: Partial<GenerationJob> = {}): GenerationJob {
  return testJob({
    prompt: '一只猫在海边奔跑',
    video: { durationSec: 5, ratio: '16:9', resolution: '720p', firstFrame: null, lastFrame: null, ...video },
    ...overrides,
  })
}

async function run(adapter: BackendAdapter, job: GenerationJob, ctx = recordingContext().ctx) {
  const accepted = await adapter.submit(job, ctx)
  if (accepted.kind !== 'accepted') throw new Error('expected the provider to accept the job')
  return { upstreamId: accepted.upstreamId, outcome: await adapter.wait!(accepted.upstreamId, job, ctx) }
}

describe.each(PROVIDERS)('$name', ({ start, factory, secret }) => {
  let fake: Fake
  beforeAll(async () => {
    fake = await start()
  })
  afterAll(() => fake.close())
  beforeEach(() => fake.set({ behaviour: 'normal', slowPolls: 5 }))
  const adapter = (options: Record<string, unknown> = {}) =>
    factory({ endpoint: fake.url, secret, checkpoint: null, options: { model: 'video-model-1', ...FAST, ...options } })

  it('makes a clip: accepted, polled to the end with rising progress, the MP4 downloaded', async () => {
    fake.set({ behaviour: 'slow', slowPolls: 4 })
    const { ctx, progress } = recordingContext()
    const { upstreamId, outcome } = await run(adapter(), videoJob(), ctx)
    expect(fake.store.jobs.get(upstreamId)?.status).toBe('succeeded')
    expect(outcome.images).toEqual([])
    expect(outcome.videos).toHaveLength(1)
    expect(isMp4(outcome.videos![0]!.bytes)).toBe(true)
    expectRising(progress)
    expect(progress.length).toBeGreaterThanOrEqual(4)
    expect(progress.at(-1)).toBe(100)
  })

  it('a refusal at submit fails at once, not retryable, with the provider message for the user', async () => {
    fake.set({ behaviour: 'refuse-submit' })
    const error = await expectFailure(adapter().submit(videoJob(), recordingContext().ctx), 'REJECTED', false)
    expect(error.userMessage).toMatch(/^内容未通过审核：.*(sensitive|inappropriate|moderation)/)
  })

  it('a refusal during the job fails it with the provider message', async () => {
    fake.set({ behaviour: 'refuse-task' })
    const error = await expectFailure(run(adapter(), videoJob()), 'REJECTED', false)
    expect(error.userMessage).toContain(CONTENT_REFUSAL.slice(0, 40))
  })

  it('a job the provider fails is UPSTREAM_FAILED, never retried (it was accepted)', async () => {
    fake.set({ behaviour: 'failing' })
    const error = await expectFailure(run(adapter(), videoJob()), 'UPSTREAM_FAILED', false)
    expect(error.userMessage).toContain(UPSTREAM_FAILURE.slice(0, 20))
  })

  it('an expired result link fails with a clear message', async () => {
    fake.set({ behaviour: 'expired' })
    await expectFailure(run(adapter(), videoJob()), 'BAD_RESPONSE', false, /下载|过期/)
  })

  it('a busy provider is BUSY and retryable (nothing was accepted)', async () => {
    fake.set({ behaviour: 'busy' })
    await expectFailure(adapter().submit(videoJob(), recordingContext().ctx), 'BUSY', true)
  })

  it('测试连接 reports a working key, and a refused one as UNAUTHORIZED', async () => {
    expect(await adapter().test()).toMatchObject({ ok: true, message: expect.stringContaining('连接正常') })
    const wrongKey = factory({ endpoint: fake.url, secret: 'wrong', checkpoint: null, options: {} })
    expect(await wrongKey.test()).toMatchObject({ ok: false, detail: { code: 'UNAUTHORIZED' } })
  })

  it('an accepted create answer without the job id fails, not retryable (a second create would bill twice)', async () => {
    fake.set({ behaviour: 'no-id' })
    const before = fake.store.jobs.size
    await expectFailure(adapter().submit(videoJob(), recordingContext().ctx), 'BAD_RESPONSE', false, /id/)
    expect(fake.store.jobs.size).toBe(before + 1)
  })

  it('refuses an image job', async () => {
    await expectFailure(adapter().submit(testJob(), recordingContext().ctx), 'REJECTED', false)
  })

  it('stops waiting when the task is aborted', async () => {
    fake.set({ behaviour: 'slow', slowPolls: 1000 })
    const stop = new AbortController()
    const { ctx } = recordingContext(stop.signal)
    const waiting = run(adapter(), videoJob(), ctx)
    setTimeout(() => stop.abort(), 100)
    await expectFailure(waiting, 'ABORTED', false)
  })
})

describe('an accepted job is waited for through passing trouble (it is billed at the provider)', () => {
  it('OpenAI videos: more than ten failed queries in a row, then the clip; a first download answering 502 is tried again', async () => {
    const fake = await startFakeOpenaiVideos()
    try {
      const adapter = createOpenaiVideoAdapter({ endpoint: fake.url, secret: 'sk-video', checkpoint: null, options: { model: 'video-model-1', ...FAST } })
      fake.set({ behaviour: 'flaky-polls' })
      const polled = await run(adapter, videoJob())
      expect(isMp4(polled.outcome.videos![0]!.bytes)).toBe(true)
      fake.set({ behaviour: 'flaky-content' })
      const downloaded = await run(adapter, videoJob())
      expect(isMp4(downloaded.outcome.videos![0]!.bytes)).toBe(true)
    } finally {
      await fake.close()
    }
  })
})

describe('cancel reaches the provider', () => {
  it('Ark: DELETE of a queued task cancels it', async () => {
    const fake = await startFakeArk()
    try {
      const adapter = createArkVideoAdapter({ endpoint: fake.url, secret: 'ark-test', checkpoint: null, options: { model: 'm' } })
      const accepted = await adapter.submit(videoJob(), recordingContext().ctx)
      if (accepted.kind !== 'accepted') throw new Error('expected accepted')
      await adapter.interrupt!(accepted.upstreamId, videoJob())
      expect(fake.requests(`/api/v3/contents/generations/tasks/${accepted.upstreamId}`, 'DELETE')).toHaveLength(1)
      expect(fake.store.jobs.get(accepted.upstreamId)?.status).toBe('cancelled')
    } finally {
      await fake.close()
    }
  })

  it('DashScope: POST /tasks/{id}/cancel', async () => {
    const fake = await startFakeDashscope()
    try {
      const adapter = createDashscopeVideoAdapter({ endpoint: fake.url, secret: 'sk-dashscope', checkpoint: null, options: { model: 'm' } })
      const accepted = await adapter.submit(videoJob(), recordingContext().ctx)
      if (accepted.kind !== 'accepted') throw new Error('expected accepted')
      await adapter.interrupt!(accepted.upstreamId, videoJob())
      expect(fake.store.jobs.get(accepted.upstreamId)?.status).toBe('cancelled')
    } finally {
      await fake.close()
    }
  })

  it('OpenAI videos: DELETE /v1/videos/{id}', async () => {
    const fake = await startFakeOpenaiVideos()
    try {
      const adapter = createOpenaiVideoAdapter({ endpoint: fake.url, secret: 'sk-video', checkpoint: null, options: {} })
      const accepted = await adapter.submit(videoJob(), recordingContext().ctx)
      if (accepted.kind !== 'accepted') throw new Error('expected accepted')
      await adapter.interrupt!(accepted.upstreamId, videoJob())
      expect(fake.requests(`/v1/videos/${accepted.upstreamId}`, 'DELETE')).toHaveLength(1)
    } finally {
      await fake.close()
    }
  })
})

describe('what each provider is sent', () => {
  it('Ark: model, prompt as text content, ratio, resolution, duration; frames inline as data URLs with their roles; the last frame as poster', async () => {
    const fake = await startFakeArk()
    try {
      const adapter = createArkVideoAdapter({
        endpoint: fake.url,
        secret: 'ark-test',
        checkpoint: null,
        options: { model: 'doubao-seedance-1-0-pro', ...FAST },
      })
      await run(adapter, videoJob({ durationSec: 10, ratio: '9:16', resolution: '1080p' }))
      expect(fake.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body).toEqual({
        model: 'doubao-seedance-1-0-pro',
        content: [{ type: 'text', text: '一只猫在海边奔跑' }],
        ratio: '9:16',
        resolution: '1080p',
        duration: 10,
        return_last_frame: true,
        watermark: false,
      })
      const [first, last] = [await solidPng(64, 64, '#ff0000'), await solidPng(64, 64, '#0000ff')]
      const { outcome } = await run(adapter, videoJob({ firstFrame: first, lastFrame: last }))
      const body = fake.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body as { content: unknown[]; ratio: string }
      expect(body.content.slice(1)).toEqual([
        { type: 'image_url', image_url: { url: `data:image/png;base64,${first.toString('base64')}` }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${last.toString('base64')}` }, role: 'last_frame' },
      ])
      expect(body.ratio).toBe('adaptive')
      expect(outcome.videos![0]!.poster).not.toBeNull()
      expect(outcome.videos![0]).toMatchObject({ width: 1280, height: 720, durationSec: 5 })
    } finally {
      await fake.close()
    }
  })

  it('DashScope: async header; text to video-generation with size; a first frame as img_url; first and last frames to image2video', async () => {
    const fake = await startFakeDashscope()
    try {
      const adapter = createDashscopeVideoAdapter({
        endpoint: fake.url,
        secret: 'sk-dashscope',
        checkpoint: null,
        options: { model: 'wan2.2-t2v-plus', ...FAST },
      })
      const t2v = '/api/v1/services/aigc/video-generation/video-synthesis'
      await run(adapter, videoJob())
      const text = fake.requests(t2v).at(-1)!
      expect(text.headers['x-dashscope-async']).toBe('enable')
      expect(text.body).toEqual({
        model: 'wan2.2-t2v-plus',
        input: { prompt: '一只猫在海边奔跑' },
        parameters: { duration: 5, prompt_extend: true, watermark: false, size: '1280*720' },
      })
      // Wan takes only the sizes on its list: not a computed 720*720 or 854*480.
      const sizes: [string, string, string][] = [
        ['1:1', '720p', '960*960'],
        ['16:9', '480p', '832*480'],
        ['3:4', '1080p', '1248*1632'],
      ]
      for (const [ratio, resolution, size] of sizes) {
        await run(adapter, videoJob({ ratio, resolution }))
        expect(fake.requests(t2v).at(-1)!.body).toMatchObject({ parameters: { size } })
      }
      const sent = fake.requests(t2v).length
      await expectFailure(adapter.submit(videoJob({ ratio: '21:9', resolution: '720p' }), recordingContext().ctx), 'REJECTED', false, /不支持 21:9/)
      expect(fake.requests(t2v)).toHaveLength(sent)
      const first = await solidPng(64, 64)
      await run(adapter, videoJob({ firstFrame: first, resolution: '480p' }))
      expect(fake.requests(t2v).at(-1)!.body).toMatchObject({
        input: { img_url: `data:image/png;base64,${first.toString('base64')}` },
        parameters: { resolution: '480P' },
      })
      await run(adapter, videoJob({ firstFrame: first, lastFrame: first }))
      const kf = fake.requests('/api/v1/services/aigc/image2video/video-synthesis').at(-1)!.body as { input: Record<string, string> }
      expect(Object.keys(kf.input).sort()).toEqual(['first_frame_url', 'last_frame_url', 'prompt'])
    } finally {
      await fake.close()
    }
  })

  it('OpenAI videos: multipart model, prompt, seconds, size; the first frame as input_reference; the thumbnail as poster', async () => {
    const fake = await startFakeOpenaiVideos()
    try {
      const adapter = createOpenaiVideoAdapter({ endpoint: `${fake.url}/v1`, secret: 'sk-video', checkpoint: null, options: FAST })
      // A portrait photo with the form's default ratio (16:9): the clip follows the photo, and
      // the frame goes at exactly the size asked for (Sora refuses any other).
      const first = await solidPng(600, 1000)
      const { outcome } = await run(adapter, videoJob({ ratio: '16:9', durationSec: 8, firstFrame: first }))
      const form = fake.requests('/v1/videos', 'POST').at(-1)!.body as Multipart
      expect(form.fields).toEqual({ model: 'sora-2', prompt: '一只猫在海边奔跑', seconds: '8', size: '720x1280' })
      expect(await sharp(form.files.input_reference!.bytes).metadata()).toMatchObject({ width: 720, height: 1280 })
      expect(outcome.videos![0]!.poster).not.toBeNull()
      expect(outcome.videos![0]).toMatchObject({ width: 720, height: 1280, durationSec: 8 })
    } finally {
      await fake.close()
    }
  })
})

/** The Wan 2.2 image-to-video template of ComfyUI's core nodes, in API format, with our placeholders. */
const WAN_I2V = {
  '1': { class_type: 'UNETLoader', inputs: { unet_name: 'wan2.2_ti2v_5B_fp16.safetensors', weight_dtype: 'default' } },
  '2': { class_type: 'CLIPLoader', inputs: { clip_name: 'umt5_xxl_fp8_e4m3fn_scaled.safetensors', type: 'wan' } },
  '3': { class_type: 'VAELoader', inputs: { vae_name: 'wan2.2_vae.safetensors' } },
  '4': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['2', 0] } },
  '5': { class_type: 'CLIPTextEncode', inputs: { text: '{{negative_prompt}}', clip: ['2', 0] } },
  '6': { class_type: 'LoadImage', inputs: { image: '{{first_image}}' } },
  '7': {
    class_type: 'WanImageToVideo',
    inputs: {
      positive: ['4', 0],
      negative: ['5', 0],
      vae: ['3', 0],
      width: '{{width}}',
      height: '{{height}}',
      length: '{{length}}',
      batch_size: 1,
      start_image: ['6', 0],
    },
  },
  '8': {
    class_type: 'KSampler',
    inputs: {
      seed: '{{seed}}',
      steps: 4,
      cfg: 5,
      sampler_name: 'uni_pc',
      scheduler: 'simple',
      denoise: 1,
      model: ['1', 0],
      positive: ['7', 0],
      negative: ['7', 1],
      latent_image: ['7', 2],
    },
  },
  '9': { class_type: 'VAEDecode', inputs: { samples: ['8', 0], vae: ['3', 0] } },
  '10': { class_type: 'CreateVideo', inputs: { images: ['9', 0], fps: '{{fps}}' } },
  '11': { class_type: 'SaveVideo', inputs: { video: ['10', 0], filename_prefix: 'video/{{task_id}}', format: 'auto', codec: 'auto' } },
}

describe('ComfyUI with a video workflow', () => {
  it('uploads the first frame, queues the filled template, follows progress and fetches the saved MP4', async () => {
    const { startFakeComfyui } = await import('../fakes/comfyui')
    const { createComfyuiAdapter } = await import('@/lib/generation/backends/comfyui')
    const fake = await startFakeComfyui()
    try {
      const adapter = createComfyuiAdapter({
        endpoint: fake.url,
        secret: null,
        checkpoint: null,
        options: { pollIntervalMs: 20, workflows: { video: WAN_I2V } },
      })
      // A portrait frame: the clip follows it, whatever ratio came with the job.
      const first = await solidPng(36, 64)
      const { ctx, progress } = recordingContext()
      const { outcome } = await run(adapter, videoJob({ firstFrame: first, durationSec: 5, ratio: '16:9', resolution: '480p' }, { seed: 7 }), ctx)
      expect(isMp4(outcome.videos![0]!.bytes)).toBe(true)
      expect(outcome.images).toEqual([])
      const queued = fake.calls.filter((c) => c.method === 'POST' && c.path === '/prompt').at(-1)!.body as { prompt: typeof WAN_I2V }
      expect(queued.prompt['7'].inputs).toMatchObject({ width: 480, height: 854, length: 81 })
      expect(queued.prompt['6'].inputs.image).toMatch(/-first\.png$/)
      expect(queued.prompt['8'].inputs.seed).toBe(7)
      expect(progress.at(-1)).toBe(100)

      // A VIDEO model on ComfyUI without a video workflow is refused with what to configure.
      const bare = createComfyuiAdapter({ endpoint: fake.url, secret: null, checkpoint: null, options: {} })
      await expectFailure(bare.submit(videoJob(), recordingContext().ctx), 'REJECTED', false, /workflows\.video/)
    } finally {
      await fake.close()
    }
  })
})

// The SD WebUI adapter against a fake AUTOMATIC1111 API: what it sends for every mode,
// what it makes of the answers, progress, errors, abort, probe, interrupt and test().
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSdWebuiAdapter } from '@/lib/generation/backends/sd-webui'
import type { BackendConfig, GenerationJob } from '@/lib/generation/backends/types'
import { fakePng } from '../fakes/common'
import {
  backendError,
  deadEndpoint,
  expectFailure,
  expectImages,
  expectRising,
  leftHalfMask,
  lineArt,
  recordingContext,
  solidPng,
  testJob,
} from '../fakes/jobs'
import { DETECTED_MAP_SEED, startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { at, pair } from '../helpers/present'

const CHECKPOINT = 'sd15.safetensors [6ce0161689]'
const LINEART = { module: 'lineart_standard', model: 'control_v11p_sd15_lineart [43d4be0d]', weight: 1.1 }

let fake: FakeSd
beforeAll(async () => {
  fake = await startFakeSdWebui()
})
afterAll(() => fake.close())
beforeEach(() => fake.set({ behaviour: 'normal', stepMs: undefined, auth: null, legacyProgress: false, alwaysDetectedMaps: false }))

const adapterFor = (config: Partial<BackendConfig> = {}) =>
  createSdWebuiAdapter({ endpoint: fake.url, secret: null, checkpoint: CHECKPOINT, options: { progressIntervalMs: 10 }, ...config })
const lastBody = (route: 'txt2img' | 'img2img') => fake.bodies(`/sdapi/v1/${route}`).at(-1)!
const run = (job: GenerationJob, config?: Partial<BackendConfig>) => adapterFor(config).submit(job, recordingContext().ctx)
const fromBase64 = (value: string) => Buffer.from(value, 'base64')

describe('txt2img', () => {
  it('sends the job as A1111 fields and returns count decodable images with the seeds from info', async () => {
    fake.set({ stepMs: 10 })
    const job = testJob({ count: 2, seed: 1234, sampler: 'DPM++ 2M', steps: 12 })
    const { ctx, progress } = recordingContext()
    const outcome = await adapterFor().submit(job, ctx)

    expect(lastBody('txt2img')).toMatchObject({
      prompt: job.prompt,
      negative_prompt: job.negativePrompt,
      seed: 1234,
      steps: 12,
      cfg_scale: 7,
      width: 512,
      height: 768,
      sampler_name: 'DPM++ 2M',
      batch_size: 2,
      n_iter: 1,
      force_task_id: job.taskId,
      override_settings: { sd_model_checkpoint: CHECKPOINT },
      override_settings_restore_afterwards: true,
    })
    expect(lastBody('txt2img')).not.toHaveProperty('alwayson_scripts')
    expect(outcome.kind).toBe('completed')
    if (outcome.kind !== 'completed') return
    await expectImages(outcome.images, 2)
    expect(outcome.images.map((i) => i.seed)).toEqual([1234, 1235])
    expect(at(outcome.images, 0).bytes.equals(at(outcome.images, 1).bytes)).toBe(false)

    expect(progress.at(-1)).toBe(100)
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true)
    expectRising(progress)
    expect(fake.bodies('/internal/progress').some((b) => b.id_task === job.taskId)).toBe(true)
  })

  it("uses the job's checkpoint over the backend's and leaves the sampler to the server when the job has none", async () => {
    await run(testJob({ checkpoint: 'anything-v5.safetensors [7f96a1a9ca]' }))
    expect(lastBody('txt2img').override_settings).toEqual({ sd_model_checkpoint: 'anything-v5.safetensors [7f96a1a9ca]' })
    expect(lastBody('txt2img')).not.toHaveProperty('sampler_name')
  })

  it("a custom model's LoRA goes into the prompt in A1111's <lora:name:weight> syntax, for every mode", async () => {
    await run(testJob({ lora: { name: 'xiaolimao_v2', weight: 0.8 } }))
    expect(lastBody('txt2img').prompt).toBe('1girl, blue hair, red dress <lora:xiaolimao_v2:0.8>')
    await run(testJob({ mode: 'img2img', initImage: await solidPng(64, 64), lora: { name: 'pixel art', weight: 0.6 } }))
    expect(lastBody('img2img').prompt).toBe('1girl, blue hair, red dress <lora:pixel art:0.6>')
    await run(testJob())
    expect(lastBody('txt2img').prompt).toBe('1girl, blue hair, red dress')
    const before = fake.calls.length
    await expectFailure(run(testJob({ lora: { name: 'bad>name', weight: 1 } })), 'REJECTED', false, /LoRA 名称/)
    expect(fake.calls.length).toBe(before)
  })

  it('reports the seeds the server picked for seed -1', async () => {
    const outcome = await run(testJob({ seed: -1, count: 3 }))
    if (outcome.kind !== 'completed') throw new Error('expected images')
    const seeds = outcome.images.map((i) => i.seed!)
    const first = at(seeds, 0)
    expect(first).toBeGreaterThanOrEqual(0)
    expect(seeds.slice(1)).toEqual([first + 1, first + 2])
  })

  it('falls back to the global progress route on builds without /internal/progress', async () => {
    fake.set({ legacyProgress: true, stepMs: 10 })
    const { ctx, progress } = recordingContext()
    await adapterFor().submit(testJob({ steps: 12 }), ctx)
    expect(fake.calls.some((c) => c.path === '/sdapi/v1/progress')).toBe(true)
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true)
    expect(progress.at(-1)).toBe(100)
  })
})

describe('img2img and inpaint', () => {
  it('img2img posts the input image as init_images with the denoising strength', async () => {
    const initImage = await solidPng(64, 96)
    const outcome = await run(testJob({ mode: 'img2img', initImage, denoisingStrength: 0.55, count: 2 }))
    const body = lastBody('img2img')
    expect(fromBase64(body.init_images[0]).equals(initImage)).toBe(true)
    expect(body.denoising_strength).toBe(0.55)
    expect(body).not.toHaveProperty('mask')
    if (outcome.kind === 'completed') await expectImages(outcome.images, 2)
  })

  it('inpaint adds the mask (white = repaint) with original fill, only-masked and 32 px padding', async () => {
    const initImage = await solidPng(64, 64)
    const maskImage = await leftHalfMask(64, 64)
    await run(testJob({ mode: 'inpaint', initImage, maskImage }))
    const body = lastBody('img2img')
    expect(fromBase64(body.mask).equals(maskImage)).toBe(true)
    expect(body).toMatchObject({
      inpainting_fill: 1,
      inpaint_full_res: true,
      inpaint_full_res_padding: 32,
      inpainting_mask_invert: 0,
      denoising_strength: 0.75,
    })
  })

  it('refuses a job without its input image before calling the server', async () => {
    const before = fake.bodies('/sdapi/v1/img2img').length
    await expectFailure(run(testJob({ mode: 'img2img' })), 'REJECTED', false)
    await expectFailure(run(testJob({ mode: 'inpaint', initImage: await solidPng(8, 8) })), 'REJECTED', false, /蒙版/)
    expect(fake.bodies('/sdapi/v1/img2img')).toHaveLength(before)
  })
})

describe('line art (txt2img + one ControlNet unit)', () => {
  it('sends the unit in alwayson_scripts and keeps only the generated images', async () => {
    const controlImage = await lineArt(64, 64)
    const outcome = await run(testJob({ mode: 'lineart', controlImage, controlnet: LINEART, count: 2 }))
    const body = lastBody('txt2img')
    const unit = body.alwayson_scripts.controlnet.args[0]
    expect(body.alwayson_scripts.controlnet.args).toHaveLength(1)
    expect(unit).toMatchObject({
      enabled: true,
      module: 'lineart_standard',
      model: 'control_v11p_sd15_lineart [43d4be0d]',
      weight: 1.1,
      control_mode: 'ControlNet is more important',
      pixel_perfect: true,
      save_detected_map: false,
    })
    expect(fromBase64(unit.image).equals(controlImage)).toBe(true)
    if (outcome.kind === 'completed') await expectImages(outcome.images, 2)
  })

  it('drops detected maps an older ControlNet appends anyway', async () => {
    fake.set({ alwaysDetectedMaps: true })
    const outcome = await run(testJob({ mode: 'lineart', controlImage: await lineArt(32, 32), controlnet: LINEART, count: 2 }))
    if (outcome.kind !== 'completed') throw new Error('expected images')
    const map = await fakePng(DETECTED_MAP_SEED)
    expect(outcome.images).toHaveLength(2)
    expect(outcome.images.some((i) => i.bytes.equals(map))).toBe(false)
  })

  it('a model named without its hash is fine, as with the real extension', async () => {
    const job = testJob({ mode: 'lineart', controlImage: await lineArt(32, 32), controlnet: { ...LINEART, model: 'control_v11p_sd15s2_lineart_anime' } })
    await expect(run(job)).resolves.toMatchObject({ kind: 'completed' })
  })

  it("maps the server's 422 for an unknown ControlNet model to REJECTED with its text", async () => {
    const job = testJob({ mode: 'lineart', controlImage: await lineArt(32, 32), controlnet: { ...LINEART, model: 'control_missing [000]' } })
    await expectFailure(run(job), 'REJECTED', false, /control_missing \[000\]' not found/)
  })

  it('refuses line art without ControlNet settings', async () => {
    await expectFailure(run(testJob({ mode: 'lineart', controlImage: await lineArt(32, 32) })), 'REJECTED', false, /ControlNet/)
  })
})

describe('errors', () => {
  it.each([
    ['failing', 'UPSTREAM_FAILED', true, /CUDA out of memory/],
    ['reject', 'REJECTED', false, /sampler_name: unknown sampler/],
    ['malformed', 'BAD_RESPONSE', true, /图片/],
    ['garbage', 'BAD_RESPONSE', true, /不是 JSON/],
  ] as const)('%s → %s (retryable %s)', async (behaviour, code, retryable, message) => {
    fake.set(behaviour)
    await expectFailure(run(testJob()), code, retryable, message)
  })

  it('an unknown sampler is REJECTED with the server\'s "Sampler not found"', async () => {
    await expectFailure(run(testJob({ sampler: 'Euler z' })), 'REJECTED', false, /Sampler not found/)
  })

  it('a backend that is not there is UNREACHABLE and retryable; a malformed endpoint is not retryable', async () => {
    await expectFailure(run(testJob(), { endpoint: await deadEndpoint() }), 'UNREACHABLE', true, /ECONNREFUSED/)
    await expectFailure(run(testJob(), { endpoint: 'sd-box:7860' }), 'UNREACHABLE', false, /地址无效/)
  })

  it('HTTP Basic: the "user:pass" secret is sent; missing or wrong credentials are UNAUTHORIZED, not retryable', async () => {
    fake.set({ auth: 'alice:s3cret' })
    await expectFailure(run(testJob()), 'UNAUTHORIZED', false)
    await expectFailure(run(testJob(), { secret: 'alice:wrong' }), 'UNAUTHORIZED', false)
    const outcome = await run(testJob(), { secret: 'alice:s3cret' })
    expect(outcome.kind).toBe('completed')
    expect(fake.calls.filter((c) => c.path === '/sdapi/v1/txt2img').at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:s3cret').toString('base64')}`,
    )
  })

  it('an abort of the task stops waiting on a hanging server at once (ABORTED)', async () => {
    fake.set('hanging')
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(), 50)
    await expectFailure(adapterFor().submit(testJob(), recordingContext(controller.signal).ctx), 'ABORTED', false)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('a deadline (a TimeoutError abort) is TIMEOUT', async () => {
    fake.set('hanging')
    const error = await backendError(adapterFor().submit(testJob(), recordingContext(AbortSignal.timeout(50)).ctx))
    expect(error.code).toBe('TIMEOUT')
  })
})

describe('queue, probe and interrupt', () => {
  it('the fake serialises generations like the queue lock; probe knows queued, running and finished tasks (never resumable: upstreamId null)', async () => {
    fake.set({ stepMs: 10 })
    const adapter = adapterFor()
    const [first, second] = [testJob({ steps: 10 }), testJob({ steps: 10 })]
    const both = Promise.all([adapter.submit(first, recordingContext().ctx), adapter.submit(second, recordingContext().ctx)])
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(await adapter.probe!(second)).toEqual({ known: true, upstreamId: null })
    expect(await adapter.probe!(testJob())).toEqual({ known: false })
    await both
    const [a, b] = pair(fake.runs.filter((r) => r.taskId === first.taskId || r.taskId === second.taskId))
    expect(b.started).toBeGreaterThanOrEqual(a.ended)
    expect(await adapter.probe!(first)).toEqual({ known: true, upstreamId: null })
  })

  it('interrupt stops the running task (A1111 then answers with what it has)', async () => {
    fake.set({ behaviour: 'slow', stepMs: 50 })
    const adapter = adapterFor()
    const job = testJob({ steps: 20 })
    const started = Date.now()
    const outcome = adapter.submit(job, recordingContext().ctx)
    await new Promise((resolve) => setTimeout(resolve, 120))
    await adapter.interrupt!(null, job)
    await expect(outcome).resolves.toMatchObject({ kind: 'completed' })
    expect(Date.now() - started).toBeLessThan(600)
    expect(fake.calls.filter((c) => c.path === '/sdapi/v1/interrupt')).toHaveLength(1)
  })

  it('interrupt leaves another running task alone and never throws', async () => {
    const before = fake.calls.filter((c) => c.path === '/sdapi/v1/interrupt').length
    await adapterFor().interrupt!(null, testJob())
    expect(fake.calls.filter((c) => c.path === '/sdapi/v1/interrupt')).toHaveLength(before)
    await expect(adapterFor({ endpoint: await deadEndpoint() }).interrupt!(null, testJob())).resolves.toBeUndefined()
  })
})

describe('test()', () => {
  it('lists the models', async () => {
    const result = await adapterFor().test()
    expect(result).toMatchObject({ ok: true, detail: { models: ['sd15.safetensors [6ce0161689]', 'anything-v5.safetensors [7f96a1a9ca]'] } })
    expect(result.message).toMatch(/2 个模型/)
  })

  it('says what is wrong instead of throwing', async () => {
    expect(await adapterFor({ endpoint: await deadEndpoint() }).test()).toMatchObject({ ok: false, detail: { code: 'UNREACHABLE' } })
    fake.set({ auth: 'alice:s3cret' })
    expect(await adapterFor().test()).toMatchObject({ ok: false, detail: { code: 'UNAUTHORIZED' } })
  })
})

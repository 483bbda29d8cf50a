// The OpenAI Images adapter against a fake OpenAI API: generations and edits requests,
// the mask turned into transparency, sizes, models, base URLs, url answers fetched
// safely, error mapping, abort and test().
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createOpenaiImagesAdapter } from '@/lib/generation/backends/openai-images'
import type { BackendConfig, GenerationJob } from '@/lib/generation/backends/types'
import type { Multipart } from '../fakes/common'
import { backendError, deadEndpoint, expectFailure, expectImages, leftHalfMask, lineArt, recordingContext, solidPng, testJob } from '../fakes/jobs'
import { startFakeOpenaiImages, type FakeOpenai } from '../fakes/openai-images'
import { present } from '../helpers/present'

let fake: FakeOpenai
beforeAll(async () => {
  fake = await startFakeOpenaiImages()
})
afterAll(() => fake.close())
beforeEach(() => fake.set({ behaviour: 'normal', responseFormat: 'b64_json', urlBase: undefined, rejectCode: 'content_policy_violation' }))

const adapterFor = (config: Partial<BackendConfig> = {}) =>
  createOpenaiImagesAdapter({ endpoint: fake.url, secret: 'sk-test', checkpoint: null, options: {}, ...config })
const run = (job: GenerationJob, config?: Partial<BackendConfig>) => adapterFor(config).submit(job, recordingContext().ctx)
const lastJson = () => fake.requests('/v1/images/generations').at(-1)!.body as Record<string, unknown>
const lastForm = () => fake.requests('/v1/images/edits').at(-1)!.body as Multipart

describe('generations (txt2img)', () => {
  it('posts model, prompt, n, the nearest size and png; returns n images', async () => {
    const { ctx, progress } = recordingContext()
    const outcome = await adapterFor().submit(testJob({ count: 2, width: 512, height: 768 }), ctx)
    expect(lastJson()).toEqual({
      model: 'gpt-image-1',
      prompt: '1girl, blue hair, red dress\nAvoid: lowres, blurry',
      n: 2,
      size: '1024x1536',
      output_format: 'png',
    })
    expect(fake.requests('/v1/images/generations').at(-1)!.headers.authorization).toBe('Bearer sk-test')
    if (outcome.kind !== 'completed') throw new Error('expected images')
    await expectImages(outcome.images, 2)
    expect(outcome.images.map((i) => i.seed)).toEqual([null, null])
    expect(progress).toEqual([5, 100])
  })

  it.each([
    [512, 512, '1024x1024'],
    [768, 512, '1536x1024'],
    [1024, 1000, '1024x1024'],
    [2048, 1024, '1536x1024'],
    [600, 1024, '1024x1536'],
  ])('%i×%i asks for %s', async (width, height, size) => {
    await run(testJob({ width, height }))
    expect(lastJson().size).toBe(size)
  })

  it('takes the model from options, else the job, else the backend, else gpt-image-1', async () => {
    await run(testJob({ checkpoint: 'gpt-image-1-mini' }), { options: { model: 'gpt-image-1.5' }, checkpoint: 'dall-e-3' })
    expect(lastJson().model).toBe('gpt-image-1.5')
    await run(testJob({ checkpoint: 'gpt-image-1-mini' }), { checkpoint: 'dall-e-3' })
    expect(lastJson().model).toBe('gpt-image-1-mini')
    await run(testJob(), { checkpoint: 'dall-e-3' })
    expect(lastJson().model).toBe('dall-e-3')
  })

  it('accepts the API base with or without /v1', async () => {
    for (const endpoint of [fake.url, `${fake.url}/`, `${fake.url}/v1`, `${fake.url}/v1/`]) {
      const before = fake.requests('/v1/images/generations').length
      await run(testJob(), { endpoint })
      expect(fake.requests('/v1/images/generations')).toHaveLength(before + 1)
    }
  })

  it('fetches url answers from the backend host', async () => {
    fake.set({ responseFormat: 'url' })
    const outcome = await run(testJob({ count: 2 }))
    if (outcome.kind === 'completed') await expectImages(outcome.images, 2)
    expect(fake.calls.filter((c) => c.path.startsWith('/files/'))).toHaveLength(2)
  })

  it('refuses url answers pointing into a private network (SSRF)', async () => {
    fake.set({ responseFormat: 'url', urlBase: 'http://169.254.169.254/latest' })
    await expectFailure(run(testJob()), 'BAD_RESPONSE', false, /无法下载/)
  })
})

describe('edits (img2img, inpaint, line art)', () => {
  it('img2img sends the input image with the parameters as multipart, no mask', async () => {
    const initImage = await solidPng(64, 48)
    const outcome = await run(testJob({ mode: 'img2img', initImage, count: 2 }))
    const form = lastForm()
    const image = present(form.files.image, 'the image part')
    expect(image.bytes.equals(initImage)).toBe(true)
    expect(image.type).toBe('image/png')
    expect(form.files).not.toHaveProperty('mask')
    expect(form.fields).toMatchObject({ model: 'gpt-image-1', n: '2', size: '1024x1536', output_format: 'png' })
    expect(form.fields.prompt).toContain('1girl, blue hair')
    if (outcome.kind === 'completed') await expectImages(outcome.images, 2)
  })

  it('inpaint sends a PNG mask, transparent exactly where ours was white, at the image size', async () => {
    const initImage = await solidPng(64, 48)
    await run(testJob({ mode: 'inpaint', initImage, maskImage: await leftHalfMask(32, 24) }))
    const mask = present(lastForm().files.mask, 'the mask part')
    const { data, info } = await sharp(mask.bytes).raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height, info.channels]).toEqual([64, 48, 4])
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]
    expect([alphaAt(2, 2), alphaAt(30, 40)]).toEqual([0, 0])
    expect([alphaAt(34, 2), alphaAt(62, 40)]).toEqual([255, 255])
  })

  it('line art sends the drawing as the image and asks in words to colour it', async () => {
    const controlImage = await lineArt(64, 64)
    await run(testJob({ mode: 'lineart', controlImage, controlnet: { module: 'lineart_standard', model: 'unused', weight: 1 } }))
    const form = lastForm()
    expect(present(form.files.image, 'the image part').bytes.equals(controlImage)).toBe(true)
    expect(form.fields.prompt).toMatch(/^Colour this line art\..*\n1girl, blue hair, red dress/s)
  })

  it('refuses edits without their images before calling the API', async () => {
    const before = fake.calls.length
    await expectFailure(run(testJob({ mode: 'img2img' })), 'REJECTED', false)
    await expectFailure(run(testJob({ mode: 'inpaint', initImage: await solidPng(8, 8) })), 'REJECTED', false, /蒙版/)
    await expectFailure(run(testJob({ mode: 'lineart' })), 'REJECTED', false, /线稿/)
    expect(fake.calls.length).toBe(before)
  })
})

describe('LoRA', () => {
  it("refuses a custom model's LoRA before calling the API (this API cannot load one)", async () => {
    const before = fake.calls.length
    await expectFailure(run(testJob({ lora: { name: 'xiaolimao_v2', weight: 0.8 } })), 'REJECTED', false, /不能加载 LoRA/)
    expect(fake.calls.length).toBe(before)
  })
})

describe('errors', () => {
  it.each([['content_policy_violation'], ['moderation_blocked']] as const)('a safety refusal (%s) is REJECTED, not retryable', async (rejectCode) => {
    fake.set({ behaviour: 'reject', rejectCode })
    await expectFailure(run(testJob()), 'REJECTED', false, /安全审核.*safety system/)
  })

  it.each([
    ['failing', 'UPSTREAM_FAILED', true, /server had an error/],
    ['rate-limited', 'BUSY', true, /Rate limit/],
    ['no-quota', 'REJECTED', false, /额度不足/],
    // A 2xx was billed: an answer without readable images fails the task rather than generating again.
    ['malformed', 'BAD_RESPONSE', false, /b64_json/],
  ] as const)('%s → %s (retryable %s)', async (behaviour, code, retryable, message) => {
    fake.set(behaviour)
    await expectFailure(run(testJob()), code, retryable, message)
  })

  it("other 400s are REJECTED with OpenAI's message (the API wants a prompt)", async () => {
    await expectFailure(run(testJob({ prompt: '', negativePrompt: '' })), 'REJECTED', false, /Missing required parameter: 'prompt'/)
  })

  it('a wrong or missing key is UNAUTHORIZED, not retryable', async () => {
    await expectFailure(run(testJob(), { secret: 'sk-wrong' }), 'UNAUTHORIZED', false, /Incorrect API key/)
    await expectFailure(run(testJob(), { secret: null }), 'UNAUTHORIZED', false)
  })

  it('a server that is not there is UNREACHABLE and retryable', async () => {
    await expectFailure(run(testJob(), { endpoint: await deadEndpoint() }), 'UNREACHABLE', true)
  })

  it('abort and deadline end a hanging request at once', async () => {
    fake.set('hanging')
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const started = Date.now()
    await expectFailure(adapterFor().submit(testJob(), recordingContext(controller.signal).ctx), 'ABORTED', false)
    expect(Date.now() - started).toBeLessThan(1000)
    expect((await backendError(adapterFor().submit(testJob(), recordingContext(AbortSignal.timeout(50)).ctx))).code).toBe('TIMEOUT')
  })
})

describe('test()', () => {
  it('counts the models', async () => {
    const result = await adapterFor().test()
    expect(result).toMatchObject({ ok: true, detail: { models: expect.arrayContaining(['gpt-image-1']) } })
    expect(result.message).toMatch(/5 个模型/)
  })

  it('says what is wrong instead of throwing', async () => {
    expect(await adapterFor({ secret: 'sk-wrong' }).test()).toMatchObject({ ok: false, detail: { code: 'UNAUTHORIZED' } })
  })
})

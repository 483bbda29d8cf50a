// The ComfyUI adapter against a fake ComfyUI: uploads, the filled workflow per mode,
// websocket progress with /history as the source of truth, errors, abort, probe,
// interrupt and test(); plus fillWorkflow on its own.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createComfyuiAdapter, fillWorkflow } from '@/lib/generation/backends/comfyui'
import { DEFAULT_WORKFLOWS } from '@/lib/generation/backends/comfyui-workflows'
import type { BackendConfig, GenerationJob } from '@/lib/generation/backends/types'
import { startFakeComfyui, type FakeComfy } from '../fakes/comfyui'
import { nodeOf } from '../fakes/comfyui-nodes'
import { deadEndpoint, expectFailure, expectImages, expectRising, leftHalfMask, lineArt, recordingContext, solidPng, testJob } from '../fakes/jobs'
import type { Multipart } from '../fakes/common'
import { at } from '../helpers/present'

let fake: FakeComfy
beforeAll(async () => {
  fake = await startFakeComfyui()
})
afterAll(() => fake.close())
beforeEach(() => fake.set({ behaviour: 'normal', stepMs: undefined, token: null, ignorePromptId: false }))

const adapterFor = (config: Partial<BackendConfig> = {}) =>
  createComfyuiAdapter({ endpoint: fake.url, secret: null, checkpoint: 'sd15.safetensors', options: { pollIntervalMs: 20 }, ...config })
const lastGraph = () => fake.prompts().at(-1)!.prompt
const uploads = () => fake.calls.filter((c) => c.path === '/upload/image').map((c) => c.body as Multipart)
const lastPost = (path: string) => fake.calls.filter((c) => c.method === 'POST' && c.path === path).at(-1)?.body
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function generate(job: GenerationJob, config?: Partial<BackendConfig>) {
  const adapter = adapterFor(config)
  const { ctx, progress } = recordingContext()
  const submitted = await adapter.submit(job, ctx)
  if (submitted.kind !== 'accepted') throw new Error('ComfyUI jobs are accepted, not completed')
  const outcome = await adapter.wait!(submitted.upstreamId, job, ctx)
  return { submitted, outcome, progress }
}

describe('fillWorkflow', () => {
  const template = {
    '5': { class_type: 'EmptyLatentImage', inputs: { width: '{{width}}', height: '{{height}}', batch_size: '{{batch_size}}' } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', clip: ['4', 1] } },
    '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'keep {{prompt}} as text', images: ['8', 0] } },
  }

  it('puts typed values in whole-string placeholders and leaves links, other text and the template alone', () => {
    const filled = fillWorkflow(template, { width: 512, height: 768, batch_size: 2, prompt: 'a cat' })
    expect(filled).toEqual({
      '5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 768, batch_size: 2 } },
      '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a cat', clip: ['4', 1] } },
      '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'keep {{prompt}} as text', images: ['8', 0] } },
    })
    expect(template['5'].inputs.width).toBe('{{width}}')
  })

  it('refuses a placeholder without a value', () => {
    expect(() => fillWorkflow(template, { width: 512, height: 768, prompt: 'a cat' })).toThrow('{{batch_size}}')
  })

  it('the default workflows use only placeholders the adapter fills', () => {
    const text = JSON.stringify(DEFAULT_WORKFLOWS)
    const used = new Set([...text.matchAll(/"\{\{(\w+)\}\}"/g)].map((m) => at(m, 1)))
    const known = [
      'task_id',
      'prompt',
      'negative_prompt',
      'seed',
      'width',
      'height',
      'steps',
      'cfg',
      'sampler',
      'batch_size',
      'denoise',
      'checkpoint',
      'init_image',
      'mask_image',
      'control_image',
      'controlnet_model',
      'controlnet_strength',
    ]
    expect([...used].filter((p) => !known.includes(p))).toEqual([])
  })
})

describe('modes', () => {
  it('txt2img: queues the filled default workflow under our task id and returns the images with progress', async () => {
    fake.set({ stepMs: 5 })
    const job = testJob({ count: 2, seed: 1234, steps: 12 })
    const { submitted, outcome, progress } = await generate(job)

    expect(submitted).toMatchObject({ kind: 'accepted', upstreamId: job.taskId })
    const sent = fake.prompts().at(-1)!
    expect(sent).toMatchObject({ prompt_id: job.taskId, client_id: `aiimg-${job.taskId}` })
    expect(nodeOf(sent.prompt, '1').inputs.ckpt_name).toBe('sd15.safetensors')
    expect(nodeOf(sent.prompt, '2').inputs.text).toBe(job.prompt)
    expect(nodeOf(sent.prompt, '3').inputs.text).toBe(job.negativePrompt)
    expect(nodeOf(sent.prompt, '4').inputs).toEqual({ width: 512, height: 768, batch_size: 2 })
    expect(nodeOf(sent.prompt, '7').inputs).toMatchObject({ seed: 1234, steps: 12, cfg: 7, sampler_name: 'euler', denoise: 1 })
    expect(nodeOf(sent.prompt, '9').inputs.filename_prefix).toBe(job.taskId)

    await expectImages(outcome.images, 2)
    expect(outcome.images.map((i) => i.seed)).toEqual([1234, 1234])
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true)
    expect(progress.at(-1)).toBe(100)
    expectRising(progress)
    expect(fake.calls.some((c) => c.path === '/ws' && c.query.get('clientId') === `aiimg-${job.taskId}`)).toBe(true)
  })

  it('the websocket saying the prompt finished ends the wait without waiting for the next history poll', async () => {
    const started = Date.now()
    const { outcome } = await generate(testJob({ steps: 30 }), { options: { pollIntervalMs: 5_000 } })
    await expectImages(outcome.images, 1)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('a random seed (-1) is chosen, sent as a number and reported with the images', async () => {
    const { outcome } = await generate(testJob({ seed: -1 }))
    const seed = nodeOf(lastGraph(), '7').inputs.seed
    expect(typeof seed).toBe('number')
    expect(at(outcome.images, 0).seed).toBe(seed)
  })

  it("img2img: uploads the input (named after the task, overwrite) and encodes it at the job's denoise", async () => {
    const initImage = await solidPng(64, 96)
    const job = testJob({ mode: 'img2img', initImage, denoisingStrength: 0.6, count: 2 })
    const { outcome } = await generate(job)
    const upload = uploads().at(-1)!
    expect(upload.files.image?.filename).toBe(`${job.taskId}-init.png`)
    expect(upload.files.image?.bytes.equals(initImage)).toBe(true)
    expect(upload.fields).toMatchObject({ overwrite: 'true', type: 'input' })
    const graph = lastGraph()
    expect(graph['4']).toEqual({ class_type: 'LoadImage', inputs: { image: `${job.taskId}-init.png` } })
    expect(nodeOf(graph, '7').inputs.denoise).toBe(0.6)
    expect(nodeOf(graph, '10').inputs.amount).toBe(2)
    await expectImages(outcome.images, 2)
  })

  it('inpaint: uploads image and mask, loads the mask from its red channel (white = repaint)', async () => {
    const job = testJob({ mode: 'inpaint', initImage: await solidPng(64, 64), maskImage: await leftHalfMask(64, 64) })
    const { outcome } = await generate(job)
    expect(
      uploads()
        .slice(-2)
        .map((u) => u.files.image?.filename),
    ).toEqual([`${job.taskId}-init.png`, `${job.taskId}-mask.png`])
    const graph = lastGraph()
    expect(graph['11']).toEqual({ class_type: 'LoadImageMask', inputs: { image: `${job.taskId}-mask.png`, channel: 'red' } })
    expect(nodeOf(graph, '6').class_type).toBe('VAEEncodeForInpaint')
    await expectImages(outcome.images, 1)
  })

  it("line art: uploads the drawing, inverts it and applies the job's ControlNet model and strength", async () => {
    const controlnet = { module: 'lineart_standard', model: 'control_v11p_sd15s2_lineart_anime.pth', weight: 0.9 }
    const job = testJob({ mode: 'lineart', controlImage: await lineArt(64, 64), controlnet })
    const { outcome } = await generate(job)
    const graph = lastGraph()
    expect(nodeOf(graph, '5').inputs.image).toBe(`${job.taskId}-lineart.png`)
    expect(graph['6']).toEqual({ class_type: 'ImageInvert', inputs: { image: ['5', 0] } })
    expect(nodeOf(graph, '10').inputs.control_net_name).toBe(controlnet.model)
    expect(nodeOf(graph, '11').inputs.strength).toBe(0.9)
    expect(nodeOf(graph, '7').inputs).toMatchObject({ positive: ['11', 0], negative: ['11', 1] })
    await expectImages(outcome.images, 1)
  })

  it("uses the operator's template for the mode", async () => {
    const workflow = structuredClone(DEFAULT_WORKFLOWS.txt2img)
    nodeOf(workflow, '7').inputs.scheduler = 'karras'
    nodeOf(workflow, '9').inputs.filename_prefix = 'operator'
    await generate(testJob({ steps: 4 }), { options: { pollIntervalMs: 20, workflows: { txt2img: workflow } } })
    expect(nodeOf(lastGraph(), '7').inputs.scheduler).toBe('karras')
    expect(nodeOf(lastGraph(), '9').inputs.filename_prefix).toBe('operator')
  })

  it('refuses a template that needs a value the job lacks, without queueing anything', async () => {
    const before = fake.prompts().length
    const workflow = { ...DEFAULT_WORKFLOWS.txt2img, '4': { class_type: 'LoadImage', inputs: { image: '{{init_image}}' } } }
    await expectFailure(
      adapterFor({ options: { workflows: { txt2img: workflow } } }).submit(testJob(), recordingContext().ctx),
      'REJECTED',
      false,
      /\{\{init_image\}\}/,
    )
    await expectFailure(adapterFor({ checkpoint: null }).submit(testJob(), recordingContext().ctx), 'REJECTED', false, /\{\{checkpoint\}\}/)
    expect(fake.prompts()).toHaveLength(before)
  })
})

describe('LoRA (custom models)', () => {
  it('hangs a LoraLoader between the checkpoint and the sampler and prompts, with the file ComfyUI lists', async () => {
    const job = testJob({ lora: { name: 'xiaolimao_v2', weight: 0.8 } })
    const { outcome } = await generate(job)
    await expectImages(outcome.images, 1)
    const graph = lastGraph()
    const loraId = Object.keys(graph).find((id) => nodeOf(graph, id).class_type === 'LoraLoader')!
    expect(nodeOf(graph, loraId).inputs).toEqual({
      model: ['1', 0],
      clip: ['1', 1],
      lora_name: 'xiaolimao_v2.safetensors',
      strength_model: 0.8,
      strength_clip: 0.8,
    })
    expect(nodeOf(graph, '7').inputs.model).toEqual([loraId, 0])
    expect(nodeOf(graph, '2').inputs).toEqual({ text: job.prompt, clip: [loraId, 1] })
    expect(nodeOf(graph, '3').inputs.clip).toEqual([loraId, 1])
    expect(nodeOf(graph, '8').inputs.vae).toEqual(['1', 2])
    expect(JSON.stringify(graph)).not.toContain('<lora:')
  })

  it('finds a LoRA in a subfolder by its name, and also in the line-art workflow', async () => {
    const job = testJob({
      mode: 'lineart',
      controlImage: await lineArt(64, 64),
      controlnet: { module: 'lineart_standard', model: 'control_v11p_sd15_lineart.pth', weight: 1 },
      lora: { name: 'pixel-art', weight: 0.6 },
    })
    await generate(job)
    const graph = lastGraph()
    const loraId = Object.keys(graph).find((id) => nodeOf(graph, id).class_type === 'LoraLoader')!
    expect(nodeOf(graph, loraId).inputs.lora_name).toBe('styles/pixel-art.safetensors')
    expect(nodeOf(graph, '7').inputs.model).toEqual([loraId, 0])
  })

  it('an operator template with {{lora_name}} places the LoRA itself', async () => {
    const workflow: Record<string, { class_type: string; inputs: Record<string, unknown> }> = structuredClone(DEFAULT_WORKFLOWS.txt2img)
    workflow['20'] = {
      class_type: 'LoraLoader',
      inputs: { model: ['1', 0], clip: ['1', 1], lora_name: '{{lora_name}}', strength_model: '{{lora_strength}}', strength_clip: 1 },
    }
    nodeOf(workflow, '7').inputs.model = ['20', 0]
    await generate(testJob({ lora: { name: 'xiaolimao_v2', weight: 0.5 } }), { options: { pollIntervalMs: 20, workflows: { txt2img: workflow } } })
    const graph = lastGraph()
    expect(Object.values(graph).filter((n) => n.class_type === 'LoraLoader')).toEqual([
      { class_type: 'LoraLoader', inputs: { model: ['1', 0], clip: ['1', 1], lora_name: 'xiaolimao_v2.safetensors', strength_model: 0.5, strength_clip: 1 } },
    ])
  })

  it('refuses, without queueing, a LoRA ComfyUI does not have and a template with no single checkpoint loader', async () => {
    const before = fake.prompts().length
    await expectFailure(
      adapterFor().submit(testJob({ lora: { name: 'missing-style', weight: 0.8 } }), recordingContext().ctx),
      'REJECTED',
      false,
      /没有名为 missing-style 的 LoRA（已有：xiaolimao_v2\.safetensors、styles\/pixel-art\.safetensors）/,
    )
    const noLoader = { ...DEFAULT_WORKFLOWS.txt2img, '1': { class_type: 'UNETLoader', inputs: {} } }
    await expectFailure(
      adapterFor({ options: { workflows: { txt2img: noLoader } } }).submit(testJob({ lora: { name: 'xiaolimao_v2', weight: 0.8 } }), recordingContext().ctx),
      'REJECTED',
      false,
      /无法加入 LoRA/,
    )
    expect(fake.prompts()).toHaveLength(before)
  })
})

describe('errors', () => {
  const submit = (job = testJob(), config?: Partial<BackendConfig>) => adapterFor(config).submit(job, recordingContext().ctx)

  it('a 400 with node_errors is REJECTED with a readable message naming the node and input', async () => {
    const error = await expectFailure(submit(testJob({ checkpoint: 'missing.safetensors' })), 'REJECTED', false)
    expect(error.message).toMatch(/Prompt outputs failed validation/)
    expect(error.message).toMatch(/节点 1（CheckpointLoaderSimple）：Value not in list：ckpt_name: 'missing.safetensors' not in/)
    await expectFailure(submit(testJob({ sampler: 'DPM++ 2M' })), 'REJECTED', false, /sampler_name: 'DPM\+\+ 2M' not in/)
  })

  it.each([
    ['failing', 'UPSTREAM_FAILED', true],
    ['malformed', 'BAD_RESPONSE', true],
    ['reject', 'REJECTED', false],
  ] as const)('submit on a %s server → %s (retryable %s)', async (behaviour, code, retryable) => {
    fake.set(behaviour)
    await expectFailure(submit(), code, retryable)
  })

  it('a server that is not there is UNREACHABLE and retryable', async () => {
    await expectFailure(submit(testJob(), { endpoint: await deadEndpoint() }), 'UNREACHABLE', true)
  })

  it('an abort stops a hanging submit at once', async () => {
    fake.set('hanging')
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const started = Date.now()
    await expectFailure(adapterFor().submit(testJob(), recordingContext(controller.signal).ctx), 'ABORTED', false)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('an execution_error mid-run fails the wait with the exception, not retryable', async () => {
    fake.set('execution-error')
    const error = await expectFailure(generate(testJob({ steps: 10 })), 'UPSTREAM_FAILED', false)
    expect(error.message).toMatch(/节点 7（KSampler）：CUDA out of memory/)
  })

  it('a dropped websocket does not lose the job: history still finishes it', async () => {
    fake.set({ behaviour: 'socket-drop', stepMs: 10 })
    const { outcome, progress } = await generate(testJob({ steps: 10, count: 2 }))
    await expectImages(outcome.images, 2)
    expect(progress.at(-1)).toBe(100)
  })

  it('an abort during the wait ends it at once', async () => {
    fake.set({ stepMs: 50 })
    const adapter = adapterFor()
    const controller = new AbortController()
    const job = testJob({ steps: 40 })
    const submitted = await adapter.submit(job, recordingContext().ctx)
    if (submitted.kind !== 'accepted') throw new Error('expected accepted')
    setTimeout(() => controller.abort(), 50)
    const started = Date.now()
    await expectFailure(adapter.wait!(submitted.upstreamId, job, recordingContext(controller.signal).ctx), 'ABORTED', false)
    expect(Date.now() - started).toBeLessThan(1000)
    await adapter.interrupt!(submitted.upstreamId, job)
  })

  it('network blips while waiting for an accepted job (cut connections, 502 pages) do not fail it', async () => {
    fake.set({ stepMs: 10 })
    const adapter = adapterFor()
    const job = testJob({ steps: 20 })
    const submitted = await adapter.submit(job, recordingContext().ctx)
    if (submitted.kind !== 'accepted') throw new Error('expected accepted')
    const historyCalls = () => fake.calls.filter((c) => c.path === `/history/${job.taskId}`).length
    const before = historyCalls()
    fake.failNext('history', 4, 'drop')
    fake.failNext('queue', 2, 502)
    fake.failNext('view', 1, 502)
    const outcome = await adapter.wait!(submitted.upstreamId, job, recordingContext().ctx)
    await expectImages(outcome.images, 1)
    expect(historyCalls() - before).toBeGreaterThan(4)
    const views = fake.calls.filter((c) => c.path === '/view' && c.query.get('filename')?.startsWith(job.taskId))
    expect(views).toHaveLength(2) // the 502 and the retry
    expect(outcome.log).toMatchObject({ promptId: job.taskId })
  })

  it('gives up after waitFailureLimit failed polls in a row, as a retryable backend fault', async () => {
    fake.set({ stepMs: 10 })
    const adapter = adapterFor({ options: { pollIntervalMs: 10, waitFailureLimit: 5 } })
    const job = testJob({ steps: 5 })
    const submitted = await adapter.submit(job, recordingContext().ctx)
    if (submitted.kind !== 'accepted') throw new Error('expected accepted')
    const historyCalls = () => fake.calls.filter((c) => c.path === `/history/${job.taskId}`).length
    const before = historyCalls()
    fake.failNext('history', 1000, 'drop')
    await expectFailure(adapter.wait!(submitted.upstreamId, job, recordingContext().ctx), 'UNREACHABLE', true, /连续 5 次出错/)
    expect(historyCalls() - before).toBe(5)
  })

  it('a prompt ComfyUI no longer knows (restart) fails the wait instead of waiting for the deadline', async () => {
    const error = await expectFailure(adapterFor().wait!('never-queued', testJob(), recordingContext().ctx), 'UPSTREAM_FAILED', false, /丢失/)
    expect(error.detail).toEqual({ code: 'BACKEND_LOST' })
  })

  it('a bearer token (reverse proxy) goes on every call and the websocket', async () => {
    fake.set({ token: 'proxy-token' })
    await expectFailure(submit(), 'UNAUTHORIZED', false)
    const { outcome } = await generate(testJob({ mode: 'img2img', initImage: await solidPng(32, 32) }), { secret: 'proxy-token' })
    await expectImages(outcome.images, 1)
    expect(fake.calls.filter((c) => c.path === '/ws').at(-1)!.headers.authorization).toBe('Bearer proxy-token')
  })
})

describe('probe, interrupt, wait after a restart', () => {
  it('probe finds a queued, a running and a finished prompt; wait works from a fresh adapter', async () => {
    fake.set({ stepMs: 10 })
    const [first, second] = [testJob({ steps: 10 }), testJob({ steps: 10 })]
    expect(await adapterFor().probe!(first)).toEqual({ known: false })
    await adapterFor().submit(first, recordingContext().ctx)
    await adapterFor().submit(second, recordingContext().ctx)
    expect(await adapterFor().probe!(first)).toEqual({ known: true, upstreamId: first.taskId })
    expect(await adapterFor().probe!(second)).toEqual({ known: true, upstreamId: second.taskId })
    const outcome = await adapterFor().wait!(second.taskId, second, recordingContext().ctx)
    await expectImages(outcome.images, 1)
    expect(await adapterFor().probe!(second)).toEqual({ known: true, upstreamId: second.taskId })
  })

  it('probe finds a queued prompt by our client_id on builds that ignore the chosen prompt_id', async () => {
    fake.set({ ignorePromptId: true, stepMs: 10 })
    const job = testJob({ steps: 10 })
    const submitted = await adapterFor().submit(job, recordingContext().ctx)
    if (submitted.kind !== 'accepted') throw new Error('expected accepted')
    expect(submitted.upstreamId).not.toBe(job.taskId)
    expect(await adapterFor().probe!(job)).toEqual({ known: true, upstreamId: submitted.upstreamId })
    await adapterFor().wait!(submitted.upstreamId, job, recordingContext().ctx)
  })

  it('interrupt deletes a pending prompt and interrupts a running one, by prompt_id', async () => {
    fake.set({ behaviour: 'slow', stepMs: 20 })
    const adapter = adapterFor()
    const [running, waiting] = [testJob({ steps: 30 }), testJob({ steps: 30 })]
    await adapter.submit(running, recordingContext().ctx)
    await adapter.submit(waiting, recordingContext().ctx)
    await pause(60)
    const interrupts = () => fake.calls.filter((c) => c.path === '/interrupt').length
    const before = interrupts()
    await adapter.interrupt!(waiting.taskId, waiting)
    expect(lastPost('/queue')).toEqual({ delete: [waiting.taskId] })
    expect(interrupts()).toBe(before)
    await adapter.interrupt!(running.taskId, running)
    expect(lastPost('/interrupt')).toEqual({ prompt_id: running.taskId })
    await expectFailure(adapter.wait!(running.taskId, running, recordingContext().ctx), 'UPSTREAM_FAILED', false, /中断/)
    await expect(adapterFor({ endpoint: await deadEndpoint() }).interrupt!(null, running)).resolves.toBeUndefined()
  })
})

describe('test()', () => {
  it('reports the version, the GPU and the checkpoints', async () => {
    const result = await adapterFor().test()
    expect(result).toEqual({ ok: true, message: expect.any(String), detail: { version: '0.3.40', models: ['sd15.safetensors', 'anything-v5.safetensors'] } })
    expect(result.message).toMatch(/ComfyUI 0\.3\.40.*RTX 4090.*2 个模型/)
  })

  it('says what is wrong instead of throwing', async () => {
    expect(await adapterFor({ endpoint: await deadEndpoint() }).test()).toMatchObject({ ok: false, detail: { code: 'UNREACHABLE' } })
  })
})

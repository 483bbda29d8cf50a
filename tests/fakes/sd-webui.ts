// A fake AUTOMATIC1111 web UI API (docs/PROTOCOLS.md §2): txt2img/img2img with ControlNet,
// one generation at a time (the queue lock), per-task and global progress, interrupt,
// the model list, optional --api-auth. Validates what the real server refuses.
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import { decodeBase64Image, fakePng, isImage, jsonBody, pause, randomSeed, record, sendJson, sendText, startServer, type RecordedRequest } from './common'

export type SdBehaviour =
  | 'normal'
  | 'slow' // stepMs per sampling step (100 ms unless set)
  | 'failing' // 500 from the generate routes, like a CUDA out-of-memory (the task id is known as finished afterwards)
  | 'hanging' // generate routes never answer
  | 'malformed' // 200 whose images are not images and whose info is not JSON (the task id is known as finished)
  | 'garbage' // 200 with an HTML page
  | 'reject' // 422 validation error naming sampler_name

export type FakeSdOptions = {
  behaviour: SdBehaviour
  stepMs?: number
  /** "user:pass" makes every route require HTTP Basic with exactly that (--api-auth). */
  auth?: string | null
  /** An older build without POST /internal/progress. */
  legacyProgress?: boolean
  /** An older ControlNet that appends detected maps even when told not to. */
  alwaysDetectedMaps?: boolean
  models?: string[]
  controlnetModels?: string[]
  /** The next N generate requests get 503 from a gateway in front of the server (nothing reaches it). */
  busyAnswers?: number
  /** The next N progress requests get 502 from a gateway in front of the server (it is restarting). */
  progressGatewayErrors?: number
  /** Generate requests whose prompt contains one of these run out of GPU memory (500); the rest render normally. */
  oomPrompts?: string[]
  /** Its model and sampler lists answer 500 too (what a health check asks): the whole server is broken. */
  brokenLists?: boolean
  /** Its model and sampler lists answer after this many ms (a server busy rendering answers slowly). */
  listDelayMs?: number
}

const SD_SAMPLERS = ['Euler a', 'Euler', 'LMS', 'Heun', 'DPM2', 'DPM++ 2M', 'DPM++ SDE', 'DPM++ 2M Karras', 'DDIM', 'UniPC']
const CONTROLNET_MODULES = ['none', 'invert', 'lineart_standard', 'lineart', 'lineart_coarse', 'lineart_anime', 'lineart_anime_denoise', 'canny']
/** Detected maps are drawn as fakePng(DETECTED_MAP_SEED). */
export const DETECTED_MAP_SEED = 0xffffff
const INTEGER_FIELDS = ['seed', 'steps', 'width', 'height', 'batch_size', 'n_iter']
const NUMBER_FIELDS = ['cfg_scale', 'denoising_strength']

export type FakeSd = Awaited<ReturnType<typeof startFakeSdWebui>>

export async function startFakeSdWebui(initial: Partial<FakeSdOptions> = {}) {
  let options: FakeSdOptions = {
    behaviour: 'normal',
    models: ['sd15.safetensors [6ce0161689]', 'anything-v5.safetensors [7f96a1a9ca]'],
    controlnetModels: ['control_v11p_sd15_lineart [43d4be0d]', 'control_v11p_sd15s2_lineart_anime [3825e83e]'],
    ...initial,
  }
  const calls: RecordedRequest[] = []
  /** Start and end of every generation, to show they never overlap. */
  const runs: { taskId: string; started: number; ended: number }[] = []
  const pending: string[] = []
  const finished: string[] = []
  let current: { taskId: string; step: number; steps: number; interrupted: boolean } | null = null
  let queueLock: Promise<unknown> = Promise.resolve()
  /** Generate requests open at once now, and the most ever (one SD WebUI should only ever get one from us). */
  let openGenerations = 0
  let peakGenerations = 0

  const stepMs = () => options.stepMs ?? (options.behaviour === 'slow' ? 100 : 2)

  function authorised(req: http.IncomingMessage): boolean {
    if (!options.auth) return true
    return req.headers.authorization === `Basic ${Buffer.from(options.auth).toString('base64')}`
  }

  async function generate(route: 'txt2img' | 'img2img', body: Record<string, unknown>, res: http.ServerResponse) {
    const refusal = await validate(route, body, options)
    if (refusal) return sendJson(res, refusal.status, refusal.body)
    const taskId = typeof body.force_task_id === 'string' ? body.force_task_id : `task(${randomUUID()})`
    pending.push(taskId)
    openGenerations++
    peakGenerations = Math.max(peakGenerations, openGenerations)
    const run = queueLock.then(() => execute(taskId, body))
    queueLock = run.catch(() => undefined)
    try {
      sendJson(res, 200, await run)
    } finally {
      openGenerations--
    }
  }

  async function execute(taskId: string, body: Record<string, unknown>) {
    pending.splice(pending.indexOf(taskId), 1)
    const started = Date.now()
    const steps = typeof body.steps === 'number' ? body.steps : 50
    current = { taskId, step: 0, steps, interrupted: false }
    while (current.step < steps && !current.interrupted) {
      await pause(stepMs())
      current.step++
    }
    current = null
    finished.push(taskId)
    runs.push({ taskId, started, ended: Date.now() })

    const count = Number(body.batch_size ?? 1) * Number(body.n_iter ?? 1)
    const seed = typeof body.seed === 'number' && body.seed !== -1 ? body.seed : randomSeed()
    const seeds = Array.from({ length: count }, (_, i) => seed + i)
    const images = await Promise.all(seeds.map((s) => fakePng(s)))
    // ControlNet appends each unit's detected map after the images unless the unit says save_detected_map: false.
    for (const unit of controlnetUnits(body)) if (unit.save_detected_map !== false || options.alwaysDetectedMaps) images.push(await fakePng(DETECTED_MAP_SEED))
    const { init_images: _init, mask: _mask, ...parameters } = body
    const info = {
      prompt: body.prompt ?? '',
      all_prompts: seeds.map(() => body.prompt ?? ''),
      negative_prompt: body.negative_prompt ?? '',
      seed,
      all_seeds: seeds,
      subseed: -1,
      width: body.width ?? 512,
      height: body.height ?? 512,
      sampler_name: body.sampler_name ?? 'Euler',
      cfg_scale: body.cfg_scale ?? 7,
      steps,
      batch_size: body.batch_size ?? 1,
      sd_model_name: 'sd15',
      infotexts: seeds.map((s) => `${String(body.prompt ?? '')}\nSteps: ${steps}, Seed: ${s}`),
      job_timestamp: '20260101000000',
      version: 'v1.10.1',
    }
    return { images: images.map((b) => b.toString('base64')), parameters, info: JSON.stringify(info) }
  }

  function taskProgress(idTask: unknown) {
    const id = String(idTask)
    const run = current?.taskId === id ? current : null
    const state = { active: run !== null, queued: pending.includes(id), completed: finished.includes(id), eta: null, live_preview: null, id_live_preview: -1 }
    if (!run) return { ...state, progress: null, textinfo: state.queued ? 'In queue' : 'Waiting...' }
    return { ...state, progress: run.step / run.steps, textinfo: `Sampling step ${run.step}` }
  }

  const fake = await startServer(async (req, res, url, raw) => {
    const body = jsonBody(raw)
    record(calls, req, url, body)
    if (!authorised(req)) return sendJson(res, 401, { detail: 'Incorrect username or password' }, { 'www-authenticate': 'Basic' })
    const route = `${req.method} ${url.pathname}`
    if (route === 'POST /sdapi/v1/txt2img' || route === 'POST /sdapi/v1/img2img') {
      if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) {
        return sendJson(res, 422, { detail: [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }] })
      }
      if (options.busyAnswers) {
        options.busyAnswers--
        return sendText(
          res,
          503,
          '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>',
        )
      }
      // Like the real server, a job that ran (and failed) stays known under its force_task_id.
      const ranAndFailed = () =>
        finished.push(
          typeof (body as Record<string, unknown>).force_task_id === 'string'
            ? String((body as Record<string, unknown>).force_task_id)
            : `task(${randomUUID()})`,
        )
      const prompt = String((body as Record<string, unknown>).prompt ?? '')
      const behaviour = options.oomPrompts?.some((p) => prompt.includes(p)) ? 'failing' : options.behaviour
      switch (behaviour) {
        case 'hanging':
          return
        case 'failing':
          ranAndFailed()
          return sendJson(res, 500, { error: 'OutOfMemoryError', detail: '', body: '', errors: 'CUDA out of memory. Tried to allocate 2.00 GiB' })
        case 'malformed':
          ranAndFailed()
          return sendJson(res, 200, { images: ['bm90IGFuIGltYWdl'], parameters: {}, info: '{"seed": 1, trunc' })
        case 'garbage':
          return sendText(res, 200, '<html><body>Gradio is loading…</body></html>')
        case 'reject':
          return sendJson(res, 422, { detail: [{ loc: ['body', 'sampler_name'], msg: 'unknown sampler', type: 'value_error' }] })
      }
      return generate(url.pathname.endsWith('txt2img') ? 'txt2img' : 'img2img', body as Record<string, unknown>, res)
    }
    if (route === 'POST /internal/progress' && !options.legacyProgress) {
      if (options.progressGatewayErrors) {
        options.progressGatewayErrors--
        return sendText(
          res,
          502,
          '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
        )
      }
      return sendJson(res, 200, taskProgress((body as { id_task?: unknown } | null)?.id_task))
    }
    if (route === 'GET /sdapi/v1/progress') {
      const state = {
        skipped: false,
        interrupted: current?.interrupted ?? false,
        job: current?.taskId ?? '',
        job_count: current ? 1 : 0,
        job_no: 0,
        sampling_step: current?.step ?? 0,
        sampling_steps: current?.steps ?? 0,
      }
      return sendJson(res, 200, { progress: current ? current.step / current.steps : 0, eta_relative: 0, state, current_image: null, textinfo: null })
    }
    if (route === 'POST /sdapi/v1/interrupt') {
      if (current) current.interrupted = true
      return sendJson(res, 200, {})
    }
    if (options.listDelayMs && (route === 'GET /sdapi/v1/sd-models' || route === 'GET /sdapi/v1/samplers')) await pause(options.listDelayMs)
    if (options.brokenLists && (route === 'GET /sdapi/v1/sd-models' || route === 'GET /sdapi/v1/samplers'))
      return sendJson(res, 500, { error: 'RuntimeError', detail: 'CUDA error: an illegal memory access was encountered' })
    if (route === 'GET /sdapi/v1/sd-models') {
      return sendJson(
        res,
        200,
        options.models!.map((title) => ({
          title,
          model_name: title.split('.')[0],
          hash: title.match(/\[(\w+)\]/)?.[1] ?? null,
          filename: `/models/${title.split(' ')[0]}`,
        })),
      )
    }
    if (route === 'GET /sdapi/v1/samplers')
      return sendJson(
        res,
        200,
        SD_SAMPLERS.map((name) => ({ name, aliases: [], options: {} })),
      )
    sendJson(res, 404, { detail: 'Not Found' })
  })

  return {
    url: fake.url,
    calls,
    runs,
    /** The most generate requests that were ever open at once. */
    peakGenerations: () => peakGenerations,
    close: fake.close,
    set(patch: Partial<FakeSdOptions> | SdBehaviour) {
      options = { ...options, ...(typeof patch === 'string' ? { behaviour: patch } : patch) }
    },
    /** The JSON bodies sent to a route, oldest first. */
    bodies: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body as Record<string, any>),
  }
}

type Refusal = { status: number; body: unknown }

function controlnetUnits(body: Record<string, unknown>): Record<string, unknown>[] {
  const scripts = body.alwayson_scripts as { controlnet?: { args?: unknown } } | undefined
  const args = scripts?.controlnet?.args
  return Array.isArray(args) ? args.filter((u): u is Record<string, unknown> => typeof u === 'object' && u !== null && u.enabled !== false) : []
}

/** The refusals of the real API: pydantic 422s, unknown sampler, missing or broken images, unknown ControlNet model. */
async function validate(route: 'txt2img' | 'img2img', body: Record<string, unknown>, options: FakeSdOptions): Promise<Refusal | null> {
  const invalid = (field: string, msg: string, type: string) => ({ status: 422, body: { detail: [{ loc: ['body', field], msg, type }] } })
  for (const field of INTEGER_FIELDS)
    if (field in body && !Number.isInteger(body[field])) return invalid(field, 'value is not a valid integer', 'type_error.integer')
  for (const field of NUMBER_FIELDS)
    if (field in body && typeof body[field] !== 'number') return invalid(field, 'value is not a valid float', 'type_error.float')
  for (const field of ['prompt', 'negative_prompt', 'sampler_name', 'force_task_id'])
    if (field in body && typeof body[field] !== 'string') return invalid(field, 'str type expected', 'type_error.str')
  const httpError = (status: number, detail: string) => ({ status, body: { error: 'HTTPException', detail, body: '', errors: `${status}: ${detail}` } })
  if ('sampler_name' in body && !SD_SAMPLERS.includes(body.sampler_name as string)) return httpError(404, 'Sampler not found')
  if (route === 'img2img') {
    if (!Array.isArray(body.init_images) || body.init_images.length === 0) return httpError(404, 'Init image not found')
    for (const image of [...body.init_images, ...('mask' in body ? [body.mask] : [])]) {
      const bytes = decodeBase64Image(image)
      if (!bytes || !(await isImage(bytes))) return httpError(500, 'Invalid encoded image')
    }
  }
  for (const unit of controlnetUnits(body)) {
    if (!CONTROLNET_MODULES.includes(String(unit.module ?? 'none'))) return httpError(422, `module '${String(unit.module)}' not found`)
    // Like the extension, a model may be named without its hash.
    const model = String(unit.model)
    if (!options.controlnetModels!.some((m) => m === model || m.replace(/ \[\w+\]$/, '') === model))
      return httpError(422, `ControlNet model '${model}' not found`)
    const bytes = decodeBase64Image(unit.image ?? unit.input_image)
    if (!bytes || !(await isImage(bytes))) return httpError(422, 'ControlNet is enabled but no valid input image is given')
  }
  return null
}

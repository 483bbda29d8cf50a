import { setTimeout as delay } from 'node:timers/promises'
import { baseUrl, checkedImage, isRecord, numberOption, okJson, send, sendJson, testOutcome } from './http'
import { BackendError, type BackendAdapter, type BackendConfig, type BackendImage, type GenerationJob, type RunContext } from './types'

/**
 * Stable Diffusion WebUI (AUTOMATIC1111 and API-compatible forks), docs/PROTOCOLS.md §2.
 * Generation is one synchronous POST; progress comes from polling beside it.
 * Options: `progressIntervalMs` (default 1000).
 */
export function createSdWebuiAdapter(config: BackendConfig): BackendAdapter {
  const base = baseUrl(config.endpoint)
  const headers: Record<string, string> = config.secret ? { authorization: `Basic ${Buffer.from(config.secret).toString('base64')}` } : {}
  const progressIntervalMs = numberOption(config.options, 'progressIntervalMs', 1000)

  /** The job's state from /internal/progress, or null on builds without that route. */
  async function taskState(taskId: string): Promise<Record<string, unknown> | null> {
    const reply = await send(`${base}/internal/progress`, { json: { id_task: taskId, id_live_preview: -1, live_preview: false }, headers, timeoutMs: 10_000 })
    if (reply.status === 404 || reply.status === 405) return null
    return asRecord(okJson(reply))
  }

  return {
    kind: 'sd-webui',

    async submit(job, ctx) {
      const route = job.mode === 'img2img' || job.mode === 'inpaint' ? 'img2img' : 'txt2img'
      const payload = requestBody(job, job.checkpoint ?? config.checkpoint)
      let perTask = true
      const stopWatching = watchProgress(ctx, progressIntervalMs, async () => {
        if (perTask) {
          const state = await taskState(job.taskId)
          if (state) return typeof state.progress === 'number' ? state.progress : null
          perTask = false
        }
        // Older builds only have the global progress of whatever runs now.
        const global = asRecord(await sendJson(`${base}/sdapi/v1/progress?skip_current_image=true`, { headers, timeoutMs: 10_000 }))
        return typeof global.progress === 'number' ? global.progress : null
      })
      try {
        const answer = asRecord(await sendJson(`${base}/sdapi/v1/${route}`, { json: payload, headers, signal: ctx.signal }))
        const info = parseInfo(answer.info)
        const images = readImages(answer.images, job.count, info)
        ctx.onProgress(100)
        return { kind: 'completed', images, log: { info } }
      } finally {
        stopWatching()
      }
    },

    // Known but never resumable: the images went to the connection of the worker that died.
    async probe(job) {
      const state = await taskState(job.taskId)
      if (state && (state.active === true || state.queued === true || state.completed === true)) return { known: true, upstreamId: null }
      return { known: false }
    },

    async interrupt(_upstreamId, job) {
      try {
        // The interrupt route stops whatever runs now: leave another task alone.
        const state = await taskState(job.taskId)
        if (state && state.active !== true) return
        await send(`${base}/sdapi/v1/interrupt`, { method: 'POST', headers, timeoutMs: 10_000 })
      } catch {
        // Best effort: the deadline or the cancel stands either way.
      }
    },

    test: () =>
      testOutcome(async () => {
        const models = await sendJson(`${base}/sdapi/v1/sd-models`, { headers, timeoutMs: 10_000 })
        if (!Array.isArray(models)) throw new BackendError('BAD_RESPONSE', '模型列表格式不对', false)
        const titles = models.map((m) => (isRecord(m) && typeof m.title === 'string' ? m.title : '')).filter(Boolean)
        return { message: `连接正常，共 ${titles.length} 个模型`, models: titles }
      }),
  }
}

/** A1111's extra-network syntax: the LoRA goes into the prompt as `<lora:name:weight>`. */
function promptWithLora(job: GenerationJob): string {
  if (!job.lora) return job.prompt
  if (/[<>:]/.test(job.lora.name)) throw new BackendError('REJECTED', `LoRA 名称不能包含 < > 或冒号：${job.lora.name}`, false)
  return `${job.prompt} <lora:${job.lora.name}:${job.lora.weight}>`.trim()
}

function requestBody(job: GenerationJob, checkpoint: string | null): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt: promptWithLora(job),
    negative_prompt: job.negativePrompt,
    seed: job.seed,
    steps: job.steps,
    cfg_scale: job.cfgScale,
    width: job.width,
    height: job.height,
    batch_size: job.count,
    n_iter: 1,
    force_task_id: job.taskId,
    send_images: true,
    save_images: false,
    override_settings: checkpoint ? { sd_model_checkpoint: checkpoint } : {},
    override_settings_restore_afterwards: true,
  }
  if (job.sampler) body.sampler_name = job.sampler
  if (job.mode === 'img2img' || job.mode === 'inpaint') {
    body.init_images = [base64(required(job.initImage, '图生图需要一张输入图片'))]
    body.denoising_strength = job.denoisingStrength ?? 0.75
  }
  if (job.mode === 'inpaint') {
    Object.assign(body, {
      mask: base64(required(job.maskImage, '局部重绘需要蒙版')),
      inpainting_mask_invert: 0,
      inpainting_fill: 1,
      inpaint_full_res: true,
      inpaint_full_res_padding: 32,
    })
  }
  if (job.mode === 'lineart') {
    const controlnet = required(job.controlnet, '线稿上色需要 ControlNet 设置（预处理器和模型）')
    body.alwayson_scripts = {
      controlnet: {
        args: [
          {
            enabled: true,
            module: controlnet.module,
            model: controlnet.model,
            weight: controlnet.weight,
            image: base64(required(job.controlImage, '线稿上色需要线稿图片')),
            resize_mode: 'Crop and Resize',
            control_mode: 'ControlNet is more important',
            pixel_perfect: true,
            guidance_start: 0,
            guidance_end: 1,
            save_detected_map: false,
          },
        ],
      },
    }
  }
  return body
}

function required<T>(value: T | null, message: string): T {
  if (value === null) throw new BackendError('REJECTED', message, false)
  return value
}

const base64 = (bytes: Buffer) => bytes.toString('base64')

function asRecord(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new BackendError('BAD_RESPONSE', 'SD WebUI 的应答格式不对', true)
  return value
}

/** `info` is a JSON document inside a string; without it the seeds are simply unknown. */
function parseInfo(info: unknown): Record<string, unknown> {
  if (typeof info !== 'string') return {}
  try {
    const parsed: unknown = JSON.parse(info)
    return isRecord(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

/** The first `count` images: ControlNet may append its detected maps after them. */
function readImages(images: unknown, count: number, info: Record<string, unknown>): BackendImage[] {
  if (!Array.isArray(images) || images.length < count || !images.slice(0, count).every((i) => typeof i === 'string')) {
    throw new BackendError('BAD_RESPONSE', `SD WebUI 没有返回 ${count} 张图片`, true)
  }
  const seeds = Array.isArray(info.all_seeds) ? info.all_seeds : []
  const firstSeed = typeof info.seed === 'number' ? info.seed : null
  return (images.slice(0, count) as string[]).map((encoded, i) => {
    const seed = typeof seeds[i] === 'number' ? (seeds[i] as number) : firstSeed === null ? null : firstSeed + i
    const bytes = Buffer.from(encoded.replace(/^data:[^,]*,/, ''), 'base64')
    return { bytes: checkedImage(bytes, `SD WebUI 返回的第 ${i + 1} 张图片`), seed }
  })
}

/**
 * Polls while the generation POST is in flight and reports rising progress (0-1 from the
 * server, 0-99 to the task: 100 is for the finished answer). Returns the stop function.
 */
function watchProgress(ctx: RunContext, intervalMs: number, read: () => Promise<number | null>): () => void {
  const stop = new AbortController()
  let reported = 0
  void (async () => {
    while (!stop.signal.aborted && !ctx.signal.aborted) {
      try {
        await delay(intervalMs, undefined, { signal: stop.signal })
        const progress = await read()
        const percent = progress === null ? 0 : Math.min(99, Math.round(progress * 100))
        if (percent > reported && !stop.signal.aborted) {
          reported = percent
          ctx.onProgress(percent)
        }
      } catch {
        // A missed poll (stopped, busy server) changes nothing: the next one or the answer will tell.
      }
    }
  })()
  return () => stop.abort()
}

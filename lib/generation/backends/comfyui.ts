import { randomInt } from 'node:crypto'
import { executionFailure, watchSocket } from './comfyui-socket'
import { DEFAULT_WORKFLOWS, fillWorkflow, withLoraLoader, type Workflow, type WorkflowValues } from './comfyui-workflows'
import { baseUrl, checkedImage, isRecord, numberOption, okJson, parseJson, send, sendJson, statusError, testOutcome, type HttpReply } from './http'
import { BackendError, type BackendAdapter, type BackendConfig, type BackendImage, type GenerationJob } from './types'

export { fillWorkflow } from './comfyui-workflows'

/**
 * ComfyUI (docs/PROTOCOLS.md §3): inputs are uploaded, the filled workflow is queued under
 * our task id, and wait() follows the websocket for progress while /history stays the
 * source of truth. Options: `workflows` ({txt2img?, img2img?, inpaint?, lineart?} API-format
 * templates), `pollIntervalMs` (default 3000), `waitFailureLimit` (failed polls in a row
 * tolerated while waiting for an accepted job, default 20).
 */
export function createComfyuiAdapter(config: BackendConfig): BackendAdapter {
  const base = baseUrl(config.endpoint)
  const headers: Record<string, string> = config.secret ? { authorization: `Bearer ${config.secret}` } : {}
  const pollIntervalMs = numberOption(config.options, 'pollIntervalMs', 3000)
  const waitFailureLimit = numberOption(config.options, 'waitFailureLimit', 20)
  const workflows = isRecord(config.options.workflows) ? config.options.workflows : {}

  async function upload(bytes: Buffer | null, name: string, what: string, signal: AbortSignal): Promise<string> {
    if (!bytes) throw new BackendError('REJECTED', `这个任务缺少${what}`, false)
    const form = new FormData()
    form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name)
    form.append('type', 'input')
    form.append('overwrite', 'true')
    const answer = await sendJson(`${base}/upload/image`, { form, headers, signal, timeoutMs: 60_000 })
    if (!isRecord(answer) || typeof answer.name !== 'string') throw new BackendError('BAD_RESPONSE', 'ComfyUI 上传图片的应答格式不对', true)
    return typeof answer.subfolder === 'string' && answer.subfolder ? `${answer.subfolder}/${answer.name}` : answer.name
  }

  /**
   * The LoRA file ComfyUI knows under the preset's name: the exact entry of
   * /object_info/LoraLoader, or the one whose file name without extension matches (the
   * form SD WebUI uses), so one preset works on both.
   */
  async function loraFile(name: string, signal: AbortSignal): Promise<string> {
    const info = await sendJson(`${base}/object_info/LoraLoader`, { headers, signal, timeoutMs: 15_000 })
    const known = comboOptions(info, 'LoraLoader', 'lora_name')
    if (!known) throw new BackendError('REJECTED', '这个 ComfyUI 没有 LoraLoader 节点，无法使用 LoRA', false)
    const stem = (file: string) => file.replace(/\\/g, '/').split('/').at(-1)!.replace(/\.[^.]+$/, '')
    const found = known.find((file) => file === name) ?? known.find((file) => stem(file) === name || file.replace(/\.[^.]+$/, '') === name)
    if (!found) throw new BackendError('REJECTED', `ComfyUI 上没有名为 ${name} 的 LoRA（已有：${known.slice(0, 20).join('、') || '无'}）`, false)
    return found
  }

  async function historyEntry(promptId: string, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    const answer = await sendJson(`${base}/history/${encodeURIComponent(promptId)}`, { headers, signal, timeoutMs: 15_000 })
    const entry = isRecord(answer) ? answer[promptId] : undefined
    return isRecord(entry) ? entry : null
  }

  /** Queue items as [number, prompt_id, prompt, extra_data, outputs]. */
  async function readQueue(signal?: AbortSignal): Promise<{ running: QueueItem[]; pending: QueueItem[] }> {
    const answer = await sendJson(`${base}/queue`, { headers, signal, timeoutMs: 15_000 })
    const items = (list: unknown): QueueItem[] =>
      (Array.isArray(list) ? list : []).filter(Array.isArray).map((item) => ({
        promptId: String(item[1]),
        clientId: isRecord(item[3]) && typeof item[3].client_id === 'string' ? item[3].client_id : null,
      }))
    return isRecord(answer) ? { running: items(answer.queue_running), pending: items(answer.queue_pending) } : { running: [], pending: [] }
  }

  async function outputImages(entry: Record<string, unknown>, job: GenerationJob, signal: AbortSignal): Promise<BackendImage[]> {
    const files = Object.values(isRecord(entry.outputs) ? entry.outputs : {})
      .flatMap((output) => (isRecord(output) && Array.isArray(output.images) ? output.images : []))
      .filter((image): image is Record<string, unknown> => isRecord(image) && image.type === 'output' && typeof image.filename === 'string')
      .slice(0, job.count)
    if (files.length === 0) throw new BackendError('BAD_RESPONSE', 'ComfyUI 的任务完成了，但没有输出图片（工作流里要有 SaveImage）', false)
    const seed = job.seed >= 0 ? job.seed : seedOf(entry)
    return Promise.all(
      files.map(async (file) => {
        const query = new URLSearchParams({ filename: String(file.filename), subfolder: String(file.subfolder ?? ''), type: 'output' })
        const reply = await send(`${base}/view?${query}`, { headers, signal, timeoutMs: 60_000 })
        if (reply.status === 429 || reply.status >= 500) throw statusError(reply)
        if (reply.status !== 200) throw new BackendError('BAD_RESPONSE', `ComfyUI 取图片 ${String(file.filename)} 失败（HTTP ${reply.status}）`, false)
        return { bytes: checkedImage(reply.bytes, `ComfyUI 的 ${String(file.filename)} `), seed }
      }),
    )
  }

  return {
    kind: 'comfyui',

    async submit(job, ctx) {
      const configured = workflows[job.mode] ?? DEFAULT_WORKFLOWS[job.mode]
      if (!isRecord(configured)) throw new BackendError('REJECTED', `ComfyUI 的 ${job.mode} 工作流模板不是对象`, false)
      let template = configured as Workflow
      // A template with its own {{lora_name}} places the LoRA itself; others get a LoraLoader.
      const ownLora = JSON.stringify(template).includes('"{{lora_name}}"')
      const lora = job.lora ? { file: await loraFile(job.lora.name, ctx.signal), strength: job.lora.weight } : null
      if (lora && !ownLora) {
        try {
          template = withLoraLoader(template, lora.file, lora.strength)
        } catch (err) {
          throw new BackendError('REJECTED', `ComfyUI 工作流模板无法加入 LoRA：${(err as Error).message}`, false)
        }
      }
      const name = job.taskId.replace(/[^\w-]/g, '_')
      const values: WorkflowValues = {
        task_id: name,
        prompt: job.prompt,
        negative_prompt: job.negativePrompt,
        seed: job.seed >= 0 ? job.seed : randomInt(0, 2 ** 32),
        width: job.width,
        height: job.height,
        steps: job.steps,
        cfg: job.cfgScale,
        sampler: job.sampler ?? 'euler',
        batch_size: job.count,
        denoise: job.denoisingStrength ?? (job.mode === 'img2img' ? 0.75 : 1),
        checkpoint: job.checkpoint ?? config.checkpoint ?? undefined,
        controlnet_model: job.controlnet?.model,
        controlnet_strength: job.controlnet?.weight,
        lora_name: lora?.file,
        lora_strength: lora?.strength,
      }
      if (job.mode === 'img2img' || job.mode === 'inpaint') values.init_image = await upload(job.initImage, `${name}-init.png`, '输入图片', ctx.signal)
      if (job.mode === 'inpaint') values.mask_image = await upload(job.maskImage, `${name}-mask.png`, '蒙版', ctx.signal)
      if (job.mode === 'lineart') values.control_image = await upload(job.controlImage, `${name}-lineart.png`, '线稿图片', ctx.signal)
      let prompt: unknown
      try {
        prompt = fillWorkflow(template, values)
      } catch (err) {
        throw new BackendError('REJECTED', `ComfyUI 工作流模板不适用于这个任务：${(err as Error).message}`, false)
      }
      const reply = await send(`${base}/prompt`, { json: { prompt, client_id: clientIdOf(job), prompt_id: job.taskId }, headers, signal: ctx.signal, timeoutMs: 60_000 })
      if (reply.status === 400) throw rejection(reply)
      const answer = okJson(reply)
      if (!isRecord(answer) || typeof answer.prompt_id !== 'string') throw new BackendError('BAD_RESPONSE', 'ComfyUI 接受任务的应答里没有 prompt_id', true)
      return { kind: 'accepted', upstreamId: answer.prompt_id, log: { promptId: answer.prompt_id, number: answer.number, seed: values.seed } }
    },

    async wait(upstreamId, job, ctx) {
      const socket = watchSocket(`${base}/ws?clientId=${encodeURIComponent(clientIdOf(job))}`, headers, upstreamId, ctx)
      try {
        let misses = 0
        let failures = 0
        for (;;) {
          // The job is accepted and the GPU works on it: a network blip or a proxy's 502
          // while we look must not fail a paid task, only many in a row (or the deadline).
          let queued: boolean
          try {
            const entry = await historyEntry(upstreamId, ctx.signal)
            if (entry) {
              const failure = historyFailure(entry)
              if (failure) throw failure
              const images = await outputImages(entry, job, ctx.signal)
              ctx.onProgress(100)
              return { kind: 'completed', images, log: { promptId: upstreamId, failedPolls: failures } }
            }
            socket.throwIfFailed()
            const queue = await readQueue(ctx.signal)
            queued = [...queue.running, ...queue.pending].some((item) => item.promptId === upstreamId)
          } catch (error) {
            if (!(error instanceof BackendError) || !error.retryable || ctx.signal.aborted) throw error
            if (++failures >= waitFailureLimit) {
              throw new BackendError(error.code, `等待 ComfyUI 的结果时连续 ${failures} 次出错，放弃等待：${error.message}`, error.retryable, error.detail)
            }
            await socket.pause(pollIntervalMs)
            continue
          }
          failures = 0
          // Neither finished nor queued, several times over (one miss can be the moment between the two).
          misses = queued ? 0 : misses + 1
          if (misses >= 3) throw new BackendError('UPSTREAM_FAILED', 'ComfyUI 已不知道这个任务（可能重启过），任务丢失', false, { code: 'BACKEND_LOST' })
          await socket.pause(pollIntervalMs)
        }
      } finally {
        socket.close()
      }
    },

    async probe(job) {
      if (await historyEntry(job.taskId)) return { known: true, upstreamId: job.taskId }
      const queue = await readQueue()
      // Builds that ignore a client-chosen prompt_id are matched by our client_id.
      const found = [...queue.running, ...queue.pending].find((item) => item.promptId === job.taskId || item.clientId === clientIdOf(job))
      return found ? { known: true, upstreamId: found.promptId } : { known: false }
    },

    async interrupt(upstreamId, job) {
      const promptId = upstreamId ?? job.taskId
      const post = (path: string, json: unknown) => send(`${base}${path}`, { json, headers, timeoutMs: 10_000 }).catch(() => undefined)
      const queue = await readQueue().catch(() => null)
      const has = (items: QueueItem[]) => items.some((item) => item.promptId === promptId)
      if (!queue || has(queue.pending)) await post('/queue', { delete: [promptId] })
      // Older builds stop whatever runs, whatever prompt_id says: ask only when it is ours.
      if (!queue || has(queue.running)) await post('/interrupt', { prompt_id: promptId })
    },

    test: () =>
      testOutcome(async () => {
        const stats = await sendJson(`${base}/system_stats`, { headers, timeoutMs: 10_000 })
        if (!isRecord(stats) || !isRecord(stats.system)) throw new BackendError('BAD_RESPONSE', 'ComfyUI 的 system_stats 格式不对', false)
        const version = typeof stats.system.comfyui_version === 'string' ? stats.system.comfyui_version.slice(0, 40) : null
        const gpu = Array.isArray(stats.devices) && isRecord(stats.devices[0]) && typeof stats.devices[0].name === 'string' ? stats.devices[0].name.slice(0, 80) : null
        const checkpoints = await sendJson(`${base}/object_info/CheckpointLoaderSimple`, { headers, timeoutMs: 10_000 }).then(checkpointNames, () => null)
        const found = [version && ` ${version}`, gpu && `，${gpu}`, checkpoints && `，${checkpoints.length} 个模型`].filter(Boolean).join('')
        return { message: `连接正常：ComfyUI${found}`, version, models: checkpoints }
      }),
  }
}

type QueueItem = { promptId: string; clientId: string | null }

/** Derived from the task so a wait() after a worker restart gets the same prompt's events. */
const clientIdOf = (job: GenerationJob) => `aiimg-${job.taskId}`

/** A finished history entry's error, from the execution_error/interrupted message it keeps. */
function historyFailure(entry: Record<string, unknown>): BackendError | null {
  const status = isRecord(entry.status) ? entry.status : {}
  if (status.status_str !== 'error') return null
  const messages = Array.isArray(status.messages) ? status.messages : []
  const message = messages.find((m): m is [string, Record<string, unknown>] => Array.isArray(m) && (m[0] === 'execution_error' || m[0] === 'execution_interrupted') && isRecord(m[1]))
  return message ? executionFailure(message[0], message[1]) : new BackendError('UPSTREAM_FAILED', 'ComfyUI 执行出错', false)
}

/** The seed the sampler used, read back from the queued workflow (random seeds are only known there). */
function seedOf(entry: Record<string, unknown>): number | null {
  const workflow = Array.isArray(entry.prompt) ? entry.prompt[2] : null
  for (const node of Object.values(isRecord(workflow) ? workflow : {})) {
    if (!isRecord(node) || !isRecord(node.inputs) || !String(node.class_type).startsWith('KSampler')) continue
    const seed = node.inputs.seed ?? node.inputs.noise_seed
    if (typeof seed === 'number') return seed
  }
  return null
}

/** ComfyUI's 400: `{error: {message, details}, node_errors: {id: {class_type, errors: [{message, details}]}}}`. */
function rejection(reply: HttpReply): BackendError {
  let body: unknown
  try {
    body = parseJson(reply)
  } catch {
    return statusError(reply)
  }
  if (!isRecord(body)) return statusError(reply)
  const parts: string[] = []
  const { error } = body
  if (typeof error === 'string') parts.push(error)
  else if (isRecord(error)) parts.push([error.message, error.details].filter((t) => typeof t === 'string' && t).join('：'))
  for (const [id, node] of Object.entries(isRecord(body.node_errors) ? body.node_errors : {})) {
    if (!isRecord(node) || !Array.isArray(node.errors)) continue
    const errors = node.errors.map((e) => (isRecord(e) ? [e.message, e.details].filter((t) => typeof t === 'string' && t).join('：') : '')).filter(Boolean)
    parts.push(`节点 ${id}（${String(node.class_type)}）：${errors.join('；')}`)
  }
  const why = parts.filter(Boolean).join('；') || '未说明原因'
  return new BackendError('REJECTED', `ComfyUI 拒绝了工作流：${why.length > 500 ? `${why.slice(0, 500)}…` : why}`, false, { status: reply.status })
}

/** Checkpoint names from /object_info/CheckpointLoaderSimple. */
function checkpointNames(info: unknown): string[] | null {
  return comboOptions(info, 'CheckpointLoaderSimple', 'ckpt_name')
}

/** The choices of a node's combo input in /object_info (old `[[names]]` or new `["COMBO", {options}]`). */
function comboOptions(info: unknown, nodeClass: string, inputName: string): string[] | null {
  const node = isRecord(info) ? info[nodeClass] : null
  const input = isRecord(node) && isRecord(node.input) && isRecord(node.input.required) ? node.input.required[inputName] : null
  if (!Array.isArray(input)) return null
  if (Array.isArray(input[0])) return input[0].map(String)
  return isRecord(input[1]) && Array.isArray(input[1].options) ? input[1].options.map(String) : null
}

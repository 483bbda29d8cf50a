import { executionFailure } from './comfyui-socket'
import { checkedImage, isRecord, parseJson, send, sendJson, statusError, type HttpReply } from './http'
import { BackendError, type BackendImage, type BackendVideo, type GenerationJob } from './types'
import { isMp4 } from './video-follow'

/** A ComfyUI server as the adapter uses it (secret = a bearer token for a proxy in front of it). */
export type ComfyConnection = {
  base: string
  headers: Record<string, string>
  checkpoint: string | null
  workflows: Record<string, unknown>
  pollIntervalMs: number
  waitFailureLimit: number
  /** Frames per second of the video workflow (Wan: 16). */
  videoFps: number
}

export type QueueItem = { promptId: string; clientId: string | null }

/** Derived from the task so a wait() after a worker restart gets the same prompt's events. */
export const clientIdOf = (job: GenerationJob) => `aiimg-${job.taskId}`

export async function upload(comfy: ComfyConnection, bytes: Buffer | null, name: string, what: string, signal: AbortSignal): Promise<string> {
  if (!bytes) throw new BackendError('REJECTED', `这个任务缺少${what}`, false)
  const form = new FormData()
  form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name)
  form.append('type', 'input')
  form.append('overwrite', 'true')
  const answer = await sendJson(`${comfy.base}/upload/image`, { form, headers: comfy.headers, signal, timeoutMs: 60_000 })
  if (!isRecord(answer) || typeof answer.name !== 'string') throw new BackendError('BAD_RESPONSE', 'ComfyUI 上传图片的应答格式不对', true)
  return typeof answer.subfolder === 'string' && answer.subfolder ? `${answer.subfolder}/${answer.name}` : answer.name
}

/**
 * The LoRA file ComfyUI knows under the preset's name: the exact entry of
 * /object_info/LoraLoader, or the one whose file name without extension matches (the
 * form SD WebUI uses), so one preset works on both.
 */
export async function loraFile(comfy: ComfyConnection, name: string, signal: AbortSignal): Promise<string> {
  const info = await sendJson(`${comfy.base}/object_info/LoraLoader`, { headers: comfy.headers, signal, timeoutMs: 15_000 })
  const known = comboOptions(info, 'LoraLoader', 'lora_name')
  if (!known) throw new BackendError('REJECTED', '这个 ComfyUI 没有 LoraLoader 节点，无法使用 LoRA', false)
  const stem = (file: string) =>
    file
      .replace(/\\/g, '/')
      .split('/')
      .at(-1)!
      .replace(/\.[^.]+$/, '')
  const found = known.find((file) => file === name) ?? known.find((file) => stem(file) === name || file.replace(/\.[^.]+$/, '') === name)
  if (!found) throw new BackendError('REJECTED', `ComfyUI 上没有名为 ${name} 的 LoRA（已有：${known.slice(0, 20).join('、') || '无'}）`, false)
  return found
}

export async function historyEntry(comfy: ComfyConnection, promptId: string, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
  const answer = await sendJson(`${comfy.base}/history/${encodeURIComponent(promptId)}`, { headers: comfy.headers, signal, timeoutMs: 15_000 })
  const entry = isRecord(answer) ? answer[promptId] : undefined
  return isRecord(entry) ? entry : null
}

/** Queue items as [number, prompt_id, prompt, extra_data, outputs]. */
export async function readQueue(comfy: ComfyConnection, signal?: AbortSignal): Promise<{ running: QueueItem[]; pending: QueueItem[] }> {
  const answer = await sendJson(`${comfy.base}/queue`, { headers: comfy.headers, signal, timeoutMs: 15_000 })
  const items = (list: unknown): QueueItem[] =>
    (Array.isArray(list) ? list : []).filter(Array.isArray).map((item) => ({
      promptId: String(item[1]),
      clientId: isRecord(item[3]) && typeof item[3].client_id === 'string' ? item[3].client_id : null,
    }))
  return isRecord(answer) ? { running: items(answer.queue_running), pending: items(answer.queue_pending) } : { running: [], pending: [] }
}

export async function outputImages(comfy: ComfyConnection, entry: Record<string, unknown>, job: GenerationJob, signal: AbortSignal): Promise<BackendImage[]> {
  const files = Object.values(isRecord(entry.outputs) ? entry.outputs : {})
    .flatMap((output) => (isRecord(output) && Array.isArray(output.images) ? output.images : []))
    .filter((image): image is Record<string, unknown> => isRecord(image) && image.type === 'output' && typeof image.filename === 'string')
    .slice(0, job.count)
  if (files.length === 0) throw new BackendError('BAD_RESPONSE', 'ComfyUI 的任务完成了，但没有输出图片（工作流里要有 SaveImage）', false)
  const seed = job.seed >= 0 ? job.seed : seedOf(entry)
  return Promise.all(
    files.map(async (file) => {
      const query = new URLSearchParams({ filename: String(file.filename), subfolder: String(file.subfolder ?? ''), type: 'output' })
      const reply = await send(`${comfy.base}/view?${query}`, { headers: comfy.headers, signal, timeoutMs: 60_000 })
      if (reply.status === 429 || reply.status >= 500) throw statusError(reply)
      if (reply.status !== 200) throw new BackendError('BAD_RESPONSE', `ComfyUI 取图片 ${String(file.filename)} 失败（HTTP ${reply.status}）`, false)
      return { bytes: checkedImage(reply.bytes, `ComfyUI 的 ${String(file.filename)} `), seed }
    }),
  )
}

/** The clips a finished video workflow saved (SaveVideo lists them under `images` with `animated`; VHS_VideoCombine under `gifs`). */
export async function outputVideos(comfy: ComfyConnection, entry: Record<string, unknown>, signal: AbortSignal): Promise<BackendVideo[]> {
  const files = Object.values(isRecord(entry.outputs) ? entry.outputs : {})
    .flatMap((output) => (isRecord(output) ? [output.images, output.gifs, output.videos].flatMap((list) => (Array.isArray(list) ? list : [])) : []))
    .filter((file): file is Record<string, unknown> => isRecord(file) && file.type === 'output' && /\.mp4$/i.test(String(file.filename)))
    .slice(0, 1)
  if (files.length === 0)
    throw new BackendError('BAD_RESPONSE', 'ComfyUI 的任务完成了，但没有输出 MP4 视频（工作流里要有 SaveVideo 或 VHS_VideoCombine）', false)
  return Promise.all(
    files.map(async (file) => {
      const query = new URLSearchParams({ filename: String(file.filename), subfolder: String(file.subfolder ?? ''), type: 'output' })
      const reply = await send(`${comfy.base}/view?${query}`, { headers: comfy.headers, signal, timeoutMs: 120_000 })
      if (reply.status === 429 || reply.status >= 500) throw statusError(reply)
      if (reply.status !== 200 || !isMp4(reply.bytes))
        throw new BackendError('BAD_RESPONSE', `ComfyUI 取视频 ${String(file.filename)} 失败（HTTP ${reply.status}）`, false)
      return { bytes: reply.bytes, poster: null, width: null, height: null, durationSec: null }
    }),
  )
}

/** A finished history entry's error, from the execution_error/interrupted message it keeps. */
export function historyFailure(entry: Record<string, unknown>): BackendError | null {
  const status = isRecord(entry.status) ? entry.status : {}
  if (status.status_str !== 'error') return null
  const messages = Array.isArray(status.messages) ? status.messages : []
  const message = messages.find(
    (m): m is [string, Record<string, unknown>] => Array.isArray(m) && (m[0] === 'execution_error' || m[0] === 'execution_interrupted') && isRecord(m[1]),
  )
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
export function rejection(reply: HttpReply): BackendError {
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
export function checkpointNames(info: unknown): string[] | null {
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

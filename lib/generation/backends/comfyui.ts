import { checkpointNames, clientIdOf, historyEntry, readQueue, type ComfyConnection, type QueueItem } from './comfyui-api'
import { submitComfyJob } from './comfyui-submit'
import { waitForComfyJob } from './comfyui-wait'
import { baseUrl, isRecord, numberOption, send, sendJson, testOutcome } from './http'
import { BackendError, type BackendAdapter, type BackendConfig, type GenerationJob, type ProbeResult, type TestResult } from './types'

export { fillWorkflow } from './comfyui-workflows'

/**
 * ComfyUI (docs/PROTOCOLS.md §3): inputs are uploaded, the filled workflow is queued under
 * our task id (comfyui-submit.ts), and wait() follows the websocket for progress while
 * /history stays the source of truth (comfyui-wait.ts). Options: `workflows` ({txt2img?,
 * img2img?, inpaint?, lineart?, video?} API-format templates; a VIDEO model needs `video`),
 * `fps` (the video workflow's frame rate, default 16), `pollIntervalMs` (default 3000),
 * `waitFailureLimit` (failed polls in a row tolerated while waiting for an accepted job, default 20).
 */
export function createComfyuiAdapter(config: BackendConfig): BackendAdapter {
  const comfy: ComfyConnection = {
    base: baseUrl(config.endpoint),
    headers: config.secret ? { authorization: `Bearer ${config.secret}` } : {},
    checkpoint: config.checkpoint,
    workflows: isRecord(config.options.workflows) ? config.options.workflows : {},
    pollIntervalMs: numberOption(config.options, 'pollIntervalMs', 3000),
    waitFailureLimit: numberOption(config.options, 'waitFailureLimit', 20),
    videoFps: numberOption(config.options, 'fps', 16),
  }
  return {
    kind: 'comfyui',
    submit: (job, ctx) => submitComfyJob(comfy, job, ctx),
    wait: (upstreamId, job, ctx) => waitForComfyJob(comfy, upstreamId, job, ctx),
    probe: (job) => probeComfyJob(comfy, job),
    interrupt: (upstreamId, job) => interruptComfyJob(comfy, upstreamId, job),
    test: () => testComfyui(comfy),
  }
}

/** Whether ComfyUI has the job of an attempt that ended without an answer: in its history, or queued. */
async function probeComfyJob(comfy: ComfyConnection, job: GenerationJob): Promise<ProbeResult> {
  if (await historyEntry(comfy, job.taskId)) return { known: true, upstreamId: job.taskId }
  const queue = await readQueue(comfy)
  // Builds that ignore a client-chosen prompt_id are matched by our client_id.
  const found = [...queue.running, ...queue.pending].find((item) => item.promptId === job.taskId || item.clientId === clientIdOf(job))
  return found ? { known: true, upstreamId: found.promptId } : { known: false }
}

async function interruptComfyJob(comfy: ComfyConnection, upstreamId: string | null, job: Pick<GenerationJob, 'taskId'>): Promise<void> {
  const promptId = upstreamId ?? job.taskId
  const post = (path: string, json: unknown) => send(`${comfy.base}${path}`, { json, headers: comfy.headers, timeoutMs: 10_000 }).catch(() => undefined)
  const queue = await readQueue(comfy).catch(() => null)
  const has = (items: QueueItem[]) => items.some((item) => item.promptId === promptId)
  if (!queue || has(queue.pending)) await post('/queue', { delete: [promptId] })
  // Older builds stop whatever runs, whatever prompt_id says: ask only when it is ours.
  if (!queue || has(queue.running)) await post('/interrupt', { prompt_id: promptId })
}

function testComfyui(comfy: ComfyConnection): Promise<TestResult> {
  return testOutcome(async () => {
    const stats = await sendJson(`${comfy.base}/system_stats`, { headers: comfy.headers, timeoutMs: 10_000 })
    if (!isRecord(stats) || !isRecord(stats.system)) throw new BackendError('BAD_RESPONSE', 'ComfyUI 的 system_stats 格式不对', false)
    const version = typeof stats.system.comfyui_version === 'string' ? stats.system.comfyui_version.slice(0, 40) : null
    const gpu =
      Array.isArray(stats.devices) && isRecord(stats.devices[0]) && typeof stats.devices[0].name === 'string' ? stats.devices[0].name.slice(0, 80) : null
    const checkpoints = await sendJson(`${comfy.base}/object_info/CheckpointLoaderSimple`, { headers: comfy.headers, timeoutMs: 10_000 }).then(
      checkpointNames,
      () => null,
    )
    const found = [version && ` ${version}`, gpu && `，${gpu}`, checkpoints && `，${checkpoints.length} 个模型`].filter(Boolean).join('')
    return { message: `连接正常：ComfyUI${found}`, version, models: checkpoints }
  })
}

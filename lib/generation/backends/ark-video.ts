import { acceptedId, isRecord, okJson, parseJson, send, statusError, testOutcome, type HttpReply } from './http'
import { dataUrl, downloadResult, followVideoJob, looksRefused, requireVideo, sizeFor, videoProvider, videoSubmitFailure, type VideoPoll } from './video-follow'
import { BackendError, type BackendAdapter, type BackendConfig } from './types'

/**
 * Volcengine Ark content-generation tasks (Seedance; docs/PROTOCOLS.md §12.1). The endpoint
 * is the host root (https://ark.cn-beijing.volces.com); the adapter adds /api/v3. Secret =
 * the API key (Bearer). Options: `model` (the model or endpoint id), `firstPollMs`, `maxPollMs`.
 */
export function createArkVideoAdapter(config: BackendConfig): BackendAdapter {
  const { api, host, headers, model } = videoProvider(config, '/api/v3')
  const taskUrl = (id: string) => `${api}/contents/generations/tasks/${encodeURIComponent(id)}`

  return {
    kind: 'ark-video',

    async submit(job, ctx) {
      const video = requireVideo(job)
      const content: unknown[] = [{ type: 'text', text: job.prompt }]
      if (video.firstFrame) content.push({ type: 'image_url', image_url: { url: dataUrl(video.firstFrame) }, role: 'first_frame' })
      if (video.lastFrame) content.push({ type: 'image_url', image_url: { url: dataUrl(video.lastFrame) }, role: 'last_frame' })
      const body = {
        model,
        content,
        ratio: video.firstFrame ? 'adaptive' : video.ratio,
        resolution: video.resolution,
        duration: video.durationSec,
        return_last_frame: true,
        watermark: false,
      }
      const reply = await send(`${api}/contents/generations/tasks`, { json: body, headers, signal: ctx.signal, createsBilledJob: true })
      if (reply.status < 200 || reply.status >= 300) throw failure(reply)
      const answer = parseJson(reply, false)
      const taskId = acceptedId(isRecord(answer) && answer.id, '方舟的应答里没有任务 id')
      ctx.onProgress(2)
      return { kind: 'accepted', upstreamId: taskId, log: { model, taskId } }
    },

    async wait(upstreamId, _job, ctx) {
      const poll = async (): Promise<VideoPoll> => {
        const task = okJson(await send(taskUrl(upstreamId), { headers, timeoutMs: 20_000, signal: ctx.signal }))
        if (!isRecord(task)) throw new BackendError('BAD_RESPONSE', '方舟的任务查询应答不是对象', true)
        const status = String(task.status)
        if (status === 'queued' || status === 'running') return { state: 'running', progress: null }
        if (status === 'succeeded') {
          const content = isRecord(task.content) ? task.content : {}
          if (typeof content.video_url !== 'string') throw new BackendError('BAD_RESPONSE', '方舟的任务成功了，但没有视频地址', false)
          // Ark reports the resolution and ratio it made ('720p', '16:9'); the file says the size exactly later.
          const size =
            typeof task.resolution === 'string' && typeof task.ratio === 'string' && task.ratio.includes(':')
              ? sizeFor({ ratio: task.ratio, resolution: task.resolution })
              : null
          return {
            state: 'succeeded',
            result: async () => ({
              bytes: await downloadResult(content.video_url as string, host, ctx.signal, 'video'),
              poster:
                typeof content.last_frame_url === 'string' ? await downloadResult(content.last_frame_url, host, ctx.signal, 'image').catch(() => null) : null,
              width: size?.width ?? null,
              height: size?.height ?? null,
              durationSec: typeof task.duration === 'number' ? task.duration : null,
            }),
          }
        }
        const error = isRecord(task.error) ? task.error : {}
        const code = typeof error.code === 'string' ? error.code : null
        const message =
          typeof error.message === 'string' ? error.message : status === 'cancelled' ? '任务已在方舟取消' : status === 'expired' ? '任务在方舟超时' : status
        return { state: 'failed', message, code, refused: looksRefused(code, message) }
      }
      const video = await followVideoJob(poll, ctx, config.options, '方舟')
      return { kind: 'completed', images: [], videos: [video], log: { upstreamId } }
    },

    async probe() {
      // Ark keeps no client reference on a task: an attempt that ended without an answer is submitted again.
      return { known: false }
    },

    async interrupt(upstreamId) {
      // Ark cancels a queued task; a running one cannot be stopped (its DELETE is refused) and runs out.
      if (upstreamId) await send(taskUrl(upstreamId), { method: 'DELETE', headers, timeoutMs: 10_000 }).catch(() => undefined)
    },

    test: () =>
      testOutcome(async () => {
        const answer = okJson(await send(`${api}/contents/generations/tasks?page_size=1`, { headers, timeoutMs: 10_000 }))
        if (!isRecord(answer) || !Array.isArray(answer.items)) throw new BackendError('BAD_RESPONSE', '接口地址不像火山方舟（任务列表格式不对）', false)
        return { message: `连接正常：火山方舟${model ? `，模型 ${model}` : '（未填写 options.model）'}` }
      }),
  }
}

/** Ark's `{error: {code, message}}`. */
function failure(reply: HttpReply): BackendError {
  let code: string | null = null
  try {
    const body = JSON.parse(reply.bytes.toString('utf8')) as unknown
    code = isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' ? body.error.code : null
  } catch {
    return statusError(reply)
  }
  return videoSubmitFailure('方舟', reply, code)
}

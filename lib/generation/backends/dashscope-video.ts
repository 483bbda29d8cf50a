import { acceptedId, isRecord, okJson, parseJson, send, statusError, testOutcome, type HttpReply } from './http'
import { dataUrl, downloadResult, followVideoJob, looksRefused, requireVideo, videoProvider, videoSubmitFailure, type VideoPoll } from './video-follow'
import { wanSize } from './wan-sizes'
import { BackendError, type BackendAdapter, type BackendConfig } from './types'

/**
 * Alibaba Cloud DashScope video synthesis (Wan; docs/PROTOCOLS.md §12.2). The endpoint is the
 * host root (https://dashscope.aliyuncs.com); the adapter adds /api/v1. Secret = the API key
 * (Bearer). A first-and-last-frame job goes to image2video, every other to video-generation.
 * Options: `model`, `firstPollMs`, `maxPollMs`.
 */
export function createDashscopeVideoAdapter(config: BackendConfig): BackendAdapter {
  const { api, host, headers, model } = videoProvider(config, '/api/v1')
  const taskUrl = (id: string) => `${api}/tasks/${encodeURIComponent(id)}`

  return {
    kind: 'dashscope-video',

    async submit(job, ctx) {
      const video = requireVideo(job)
      const input: Record<string, string> = { prompt: job.prompt }
      const parameters: Record<string, unknown> = { duration: video.durationSec, prompt_extend: true, watermark: false }
      let path = 'video-generation/video-synthesis'
      if (video.firstFrame && video.lastFrame) {
        path = 'image2video/video-synthesis'
        input.first_frame_url = dataUrl(video.firstFrame)
        input.last_frame_url = dataUrl(video.lastFrame)
        parameters.resolution = video.resolution.toUpperCase()
      } else if (video.firstFrame) {
        input.img_url = dataUrl(video.firstFrame)
        parameters.resolution = video.resolution.toUpperCase()
      } else {
        const size = wanSize(video.ratio, video.resolution)
        if (!size)
          throw new BackendError('REJECTED', `通义万相文生视频不支持 ${video.ratio} 比例的 ${video.resolution} 视频，请在模型设置里去掉这个组合`, false)
        parameters.size = size
      }
      const reply = await send(`${api}/services/aigc/${path}`, {
        json: { model, input, parameters },
        headers: { ...headers, 'X-DashScope-Async': 'enable' },
        signal: ctx.signal,
        createsBilledJob: true,
      })
      if (reply.status < 200 || reply.status >= 300) throw failure(reply)
      const answer = parseJson(reply, false)
      const taskId = acceptedId(isRecord(answer) && isRecord(answer.output) && answer.output.task_id, '百炼的应答里没有 task_id')
      ctx.onProgress(2)
      return { kind: 'accepted', upstreamId: taskId, log: { model, taskId, requestId: isRecord(answer) ? answer.request_id : null } }
    },

    async wait(upstreamId, job, ctx) {
      const poll = async (): Promise<VideoPoll> => {
        const answer = okJson(await send(taskUrl(upstreamId), { headers, timeoutMs: 20_000, signal: ctx.signal }))
        const output = isRecord(answer) && isRecord(answer.output) ? answer.output : null
        if (!output) throw new BackendError('BAD_RESPONSE', '百炼的任务查询应答里没有 output', true)
        const status = String(output.task_status)
        if (status === 'PENDING' || status === 'RUNNING') return { state: 'running', progress: null }
        if (status === 'SUCCEEDED') {
          if (typeof output.video_url !== 'string') throw new BackendError('BAD_RESPONSE', '百炼的任务成功了，但没有视频地址', false)
          const usage = isRecord(answer) && isRecord(answer.usage) ? answer.usage : {}
          return {
            state: 'succeeded',
            result: async () => ({
              bytes: await downloadResult(output.video_url as string, host, ctx.signal, 'video'),
              poster: null,
              width: null,
              height: null,
              durationSec: typeof usage.video_duration === 'number' ? usage.video_duration : (job.video?.durationSec ?? null),
            }),
          }
        }
        const code = typeof output.code === 'string' ? output.code : null
        // UNKNOWN: the task is gone (DashScope keeps task ids 24 hours).
        const message = typeof output.message === 'string' ? output.message : status === 'CANCELED' ? '任务已在百炼取消' : `任务状态 ${status}`
        return { state: 'failed', message, code, refused: looksRefused(code, message) }
      }
      const video = await followVideoJob(poll, ctx, config.options, '百炼')
      return { kind: 'completed', images: [], videos: [video], log: { upstreamId } }
    },

    async probe() {
      return { known: false }
    },

    async interrupt(upstreamId) {
      // DashScope cancels a task that is still PENDING; a running one runs out.
      if (upstreamId) await send(`${taskUrl(upstreamId)}/cancel`, { method: 'POST', json: {}, headers, timeoutMs: 10_000 }).catch(() => undefined)
    },

    test: () =>
      testOutcome(async () => {
        // An id no task has: DashScope answers it (UNKNOWN status) when the key is good.
        const reply = await send(taskUrl('00000000-0000-0000-0000-000000000000'), { headers, timeoutMs: 10_000 })
        const answer = okJson(reply)
        if (!isRecord(answer) || !isRecord(answer.output)) throw new BackendError('BAD_RESPONSE', '接口地址不像阿里云百炼（任务查询格式不对）', false)
        return { message: `连接正常：阿里云百炼${model ? `，模型 ${model}` : '（未填写 options.model）'}` }
      }),
  }
}

/** DashScope's `{code, message, request_id}`. */
function failure(reply: HttpReply): BackendError {
  try {
    const body = JSON.parse(reply.bytes.toString('utf8')) as unknown
    return videoSubmitFailure('百炼', reply, isRecord(body) && typeof body.code === 'string' ? body.code : null)
  } catch {
    return statusError(reply)
  }
}

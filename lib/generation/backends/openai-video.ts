import { acceptedId, isRecord, okJson, parseJson, send, statusError, testOutcome, type HttpReply } from './http'
import {
  followVideoJob,
  frameAtSize,
  isMp4,
  looksRefused,
  ratioOfFrame,
  requireVideo,
  sizeFor,
  videoProvider,
  videoSubmitFailure,
  type VideoPoll,
} from './video-follow'
import { BackendError, type BackendAdapter, type BackendConfig } from './types'
import { sniffImageType } from '@/lib/uploads/image-upload'

/**
 * The OpenAI-format Videos API (/v1/videos) that OpenAI and relays (new-api and others)
 * expose for many video models (docs/PROTOCOLS.md §12.3). The endpoint is the API base, with
 * or without /v1. Secret = the API key. The first frame goes along as the multipart
 * `input_reference` file. Options: `model` (default sora-2), `firstPollMs`, `maxPollMs`.
 */
export function createOpenaiVideoAdapter(config: BackendConfig): BackendAdapter {
  const { api, headers, model } = videoProvider(config, '/v1', 'sora-2')
  const videoUrl = (id: string) => `${api}/videos/${encodeURIComponent(id)}`

  async function content(id: string, variant: 'video' | 'thumbnail', signal: AbortSignal): Promise<Buffer> {
    const reply = await send(`${videoUrl(id)}/content${variant === 'thumbnail' ? '?variant=thumbnail' : ''}`, {
      headers: { ...headers, accept: '*/*' },
      signal,
    })
    if (reply.status === 404 || reply.status === 410)
      throw new BackendError('BAD_RESPONSE', `生成的视频已无法下载（HTTP ${reply.status}，可能已过期）`, false, { status: reply.status })
    if (reply.status < 200 || reply.status >= 300) throw statusError(reply)
    if (variant === 'video' ? !isMp4(reply.bytes) : !sniffImageType(reply.bytes))
      throw new BackendError('BAD_RESPONSE', `下载的${variant === 'video' ? '视频不是 MP4' : '封面不是图片'}`, false)
    return reply.bytes
  }

  return {
    kind: 'openai-video',

    async submit(job, ctx) {
      const video = requireVideo(job)
      // From a first frame the clip follows the frame, landscape or portrait (the sizes Sora
      // has), and the frame must be exactly the requested size: it is cut and scaled to it.
      const ratio = video.firstFrame ? ((await ratioOfFrame(video.firstFrame, ['16:9', '9:16'])) ?? video.ratio) : video.ratio
      const size = sizeFor({ ratio, resolution: video.resolution })
      const form = new FormData()
      form.append('model', model)
      form.append('prompt', job.prompt)
      form.append('seconds', String(video.durationSec))
      form.append('size', `${size.width}x${size.height}`)
      if (video.firstFrame) {
        const frame = await frameAtSize(video.firstFrame, size).catch(() => {
          throw new BackendError('REJECTED', '首帧图片无法读取', false)
        })
        form.append('input_reference', new Blob([new Uint8Array(frame)], { type: 'image/png' }), 'first-frame.png')
      }
      const reply = await send(`${api}/videos`, { form, headers, signal: ctx.signal, createsBilledJob: true })
      if (reply.status < 200 || reply.status >= 300) throw failure(reply)
      const answer = parseJson(reply, false)
      const videoId = acceptedId(isRecord(answer) && answer.id, '视频接口的应答里没有 id')
      ctx.onProgress(2)
      return { kind: 'accepted', upstreamId: videoId, log: { model, videoId } }
    },

    async wait(upstreamId, job, ctx) {
      const poll = async (): Promise<VideoPoll> => {
        const item = okJson(await send(videoUrl(upstreamId), { headers, timeoutMs: 20_000, signal: ctx.signal }))
        if (!isRecord(item)) throw new BackendError('BAD_RESPONSE', '视频接口的查询应答不是对象', true)
        const status = String(item.status)
        const progress = typeof item.progress === 'number' ? item.progress : null
        if (status === 'queued' || status === 'in_progress' || status === 'processing') return { state: 'running', progress }
        if (status === 'completed') {
          const size = typeof item.size === 'string' ? item.size.split('x').map(Number) : []
          return {
            state: 'succeeded',
            result: async () => ({
              bytes: await content(upstreamId, 'video', ctx.signal),
              poster: await content(upstreamId, 'thumbnail', ctx.signal).catch(() => null),
              width: size[0] || null,
              height: size[1] || null,
              durationSec: Number(item.seconds) || (job.video?.durationSec ?? null),
            }),
          }
        }
        const error = isRecord(item.error) ? item.error : {}
        const code = typeof error.code === 'string' ? error.code : null
        const message = typeof error.message === 'string' ? error.message : `任务状态 ${status}`
        return { state: 'failed', message, code, refused: looksRefused(code, message) }
      }
      const video = await followVideoJob(poll, ctx, config.options, '视频接口')
      return { kind: 'completed', images: [], videos: [video], log: { upstreamId } }
    },

    async probe() {
      return { known: false }
    },

    async interrupt(upstreamId) {
      // The Videos API has no cancel: deleting the video is the closest, where the relay allows it.
      if (upstreamId) await send(videoUrl(upstreamId), { method: 'DELETE', headers, timeoutMs: 10_000 }).catch(() => undefined)
    },

    test: () =>
      testOutcome(async () => {
        const answer = okJson(await send(`${api}/models`, { headers, timeoutMs: 10_000 }))
        if (!isRecord(answer) || !Array.isArray(answer.data)) throw new BackendError('BAD_RESPONSE', '模型列表格式不对', false)
        const ids = answer.data.map((m) => (isRecord(m) && typeof m.id === 'string' ? m.id : '')).filter(Boolean)
        return { message: `连接正常，共 ${ids.length} 个模型`, models: ids }
      }),
  }
}

/** OpenAI's `{error: {message, type, code}}`. */
function failure(reply: HttpReply): BackendError {
  try {
    const body = JSON.parse(reply.bytes.toString('utf8')) as unknown
    return videoSubmitFailure('视频接口', reply, isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' ? body.error.code : null)
  } catch {
    return statusError(reply)
  }
}

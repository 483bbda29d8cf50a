// A fake Volcengine Ark content-generation task API (docs/PROTOCOLS.md §12.1):
// POST /api/v3/contents/generations/tasks, GET .../tasks/{id}, DELETE .../tasks/{id}
// (cancels a queued task, refuses a running one), GET .../tasks (list), bearer keys,
// errors as `{error: {code, message}}`, the clip and last frame served under /files/.
import sharp from 'sharp'
import { jsonBody, record, sendJson, startServer, type RecordedRequest } from './common'
import { CONTENT_REFUSAL, fakeClip, VideoJobStore, type VideoJobStoreOptions } from './video-jobs'

export type FakeArk = Awaited<ReturnType<typeof startFakeArk>>

/** The clip's last frame as Ark offers it: a PNG of the clip's size. */
const lastFrame = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: '#204060' } })
    .png()
    .toBuffer()

export async function startFakeArk(initial: Partial<VideoJobStoreOptions> & { apiKey?: string } = {}) {
  const apiKey = initial.apiKey ?? 'ark-test'
  const store = new VideoJobStore({ behaviour: 'normal', slowPolls: 5, ...initial })
  const calls: RecordedRequest[] = []
  const base = '/api/v3/contents/generations/tasks'

  const fake = await startServer(async (req, res, url, raw) => {
    const body = jsonBody(raw)
    record(calls, req, url, body)
    const error = (status: number, code: string, message: string) => sendJson(res, status, { error: { code, message } })
    if (url.pathname.startsWith('/files/')) {
      if (store.options.behaviour === 'expired') return sendJson(res, 403, { Code: 'AccessDenied', Message: 'Request has expired' })
      const isFrame = url.pathname.endsWith('.png')
      res.writeHead(200, { 'content-type': isFrame ? 'image/png' : 'video/mp4' })
      return res.end(isFrame ? await lastFrame() : await fakeClip())
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'AuthenticationError', 'The API key in the request is missing or invalid.')
    if (req.method === 'POST' && url.pathname === base) {
      if (store.options.behaviour === 'busy') return error(429, 'ServerOverloaded', 'The service is overloaded, please retry later.')
      if (store.options.behaviour === 'refuse-submit')
        return error(400, 'InputTextSensitiveContentDetected', 'The request failed because the input text may contain sensitive information.')
      const input = body as { model?: unknown; content?: unknown }
      if (typeof input?.model !== 'string' || !Array.isArray(input.content)) return error(400, 'InvalidParameter', 'model and content are required')
      const job = store.create(body, 'cgt')
      return sendJson(res, 200, store.options.behaviour === 'no-id' ? {} : { id: job.id })
    }
    if (req.method === 'GET' && url.pathname === base) return sendJson(res, 200, { items: [], total: 0 })
    const id = decodeURIComponent(url.pathname.slice(base.length + 1))
    if (req.method === 'DELETE') {
      if (store.cancel(id)) return sendJson(res, 200, {})
      return error(400, 'InvalidAction.TaskStatus', 'Only queued tasks can be cancelled.')
    }
    const job = store.poll(id)
    if (!job) return error(404, 'ResourceNotFound', 'The specified task is not found.')
    const input = job.input as { model: string; resolution?: string; ratio?: string; duration?: number }
    const origin = `http://${req.headers.host}`
    return sendJson(res, 200, {
      id: job.id,
      model: input.model,
      status: job.status,
      ...(job.failure ? { error: { code: job.failure.code, message: job.failure.code.includes('Sensitive') ? CONTENT_REFUSAL : job.failure.message } } : {}),
      ...(job.status === 'succeeded'
        ? { content: { video_url: `${origin}/files/${job.id}.mp4?X-Tos-Expires=86400`, last_frame_url: `${origin}/files/${job.id}-last.png` } }
        : {}),
      resolution: input.resolution ?? '720p',
      ratio: input.ratio === 'adaptive' ? '16:9' : (input.ratio ?? '16:9'),
      duration: input.duration ?? 5,
      created_at: Math.floor(Date.now() / 1000),
      updated_at: Math.floor(Date.now() / 1000),
    })
  })

  return {
    ...fake,
    store,
    calls,
    set: (options: Partial<VideoJobStoreOptions>) => Object.assign(store.options, options),
    requests: (path: string, method?: string) => calls.filter((c) => c.path === path && (!method || c.method === method)),
  }
}

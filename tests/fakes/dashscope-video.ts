// A fake Alibaba Cloud DashScope video synthesis API (docs/PROTOCOLS.md §12.2):
// POST /api/v1/services/aigc/video-generation/video-synthesis and .../image2video/video-synthesis
// (X-DashScope-Async: enable required), GET /api/v1/tasks/{id}, POST /api/v1/tasks/{id}/cancel,
// errors as `{code, message, request_id}`, the clip served under /files/.
import { randomUUID } from 'node:crypto'
import { jsonBody, record, sendJson, startServer, type RecordedRequest } from './common'
import { fakeClip, VideoJobStore, type VideoJobStoreOptions } from './video-jobs'

export type FakeDashscope = Awaited<ReturnType<typeof startFakeDashscope>>

const STATUS = { queued: 'PENDING', running: 'RUNNING', succeeded: 'SUCCEEDED', failed: 'FAILED', cancelled: 'CANCELED' } as const

/** Written out as DashScope's documentation lists them (not taken from the adapter's table). */
const WAN_LISTED_SIZES = new Set([
  '832*480',
  '480*832',
  '624*624',
  '1280*720',
  '720*1280',
  '960*960',
  '1088*832',
  '832*1088',
  '1920*1080',
  '1080*1920',
  '1440*1440',
  '1632*1248',
  '1248*1632',
])

export async function startFakeDashscope(initial: Partial<VideoJobStoreOptions> & { apiKey?: string } = {}) {
  const apiKey = initial.apiKey ?? 'sk-dashscope'
  const store = new VideoJobStore({ behaviour: 'normal', slowPolls: 5, ...initial })
  const calls: RecordedRequest[] = []

  const fake = await startServer(async (req, res, url, raw) => {
    const body = jsonBody(raw)
    record(calls, req, url, body)
    const error = (status: number, code: string, message: string) => sendJson(res, status, { request_id: randomUUID(), code, message })
    if (url.pathname.startsWith('/files/')) {
      if (store.options.behaviour === 'expired')
        return sendJson(res, 403, { Code: 'AccessDenied', Message: 'Request has expired.' }, { 'content-type': 'application/xml' })
      res.writeHead(200, { 'content-type': 'video/mp4' })
      return res.end(await fakeClip())
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'InvalidApiKey', 'Invalid API-key provided.')
    if (req.method === 'POST' && /^\/api\/v1\/services\/aigc\/(video-generation|image2video)\/video-synthesis$/.test(url.pathname)) {
      if (req.headers['x-dashscope-async'] !== 'enable') return error(403, 'AccessDenied', 'current user api does not support synchronous calls')
      if (store.options.behaviour === 'busy') return error(429, 'Throttling.RateQuota', 'Requests rate limit exceeded, please try again later.')
      if (store.options.behaviour === 'refuse-submit') return error(400, 'DataInspectionFailed', 'Input data may contain inappropriate content.')
      const input = body as { model?: unknown; input?: { prompt?: unknown } }
      if (typeof input?.model !== 'string' || typeof input.input?.prompt !== 'string')
        return error(400, 'InvalidParameter', 'model and input.prompt are required')
      // Wan's text-to-video takes only the sizes on its published list.
      const size = (body as { parameters?: { size?: unknown } }).parameters?.size
      if (size !== undefined && !WAN_LISTED_SIZES.has(String(size))) return error(400, 'InvalidParameter', `The size is invalid: ${String(size)}`)
      const job = store.create(body, 'ds')
      if (store.options.behaviour === 'no-id') return sendJson(res, 200, { request_id: randomUUID(), output: { task_status: 'PENDING' } })
      return sendJson(res, 200, { request_id: randomUUID(), output: { task_id: job.id, task_status: 'PENDING' } })
    }
    const cancel = /^\/api\/v1\/tasks\/([^/]+)\/cancel$/.exec(url.pathname)
    if (req.method === 'POST' && cancel) {
      if (store.cancel(cancel[1]!)) return sendJson(res, 200, { request_id: randomUUID() })
      return error(400, 'UnsupportedOperation', 'Failed to cancel the task, please confirm if the task is in PENDING status.')
    }
    const query = /^\/api\/v1\/tasks\/([^/]+)$/.exec(url.pathname)
    if (req.method === 'GET' && query) {
      const job = store.poll(decodeURIComponent(query[1]!))
      if (!job) return sendJson(res, 200, { request_id: randomUUID(), output: { task_id: query[1], task_status: 'UNKNOWN' } })
      const input = job.input as { parameters?: { duration?: number } }
      const origin = `http://${req.headers.host}`
      return sendJson(res, 200, {
        request_id: randomUUID(),
        output: {
          task_id: job.id,
          task_status: STATUS[job.status],
          submit_time: new Date().toISOString(),
          ...(job.status === 'succeeded' ? { video_url: `${origin}/files/${job.id}.mp4?Expires=1700000000&Signature=x` } : {}),
          ...(job.failure ? { code: job.failure.code.includes('Sensitive') ? 'DataInspectionFailed' : job.failure.code, message: job.failure.message } : {}),
        },
        ...(job.status === 'succeeded' ? { usage: { video_duration: input.parameters?.duration ?? 5, video_count: 1 } } : {}),
      })
    }
    return error(404, 'NotFound', 'Not found')
  })

  return {
    ...fake,
    store,
    calls,
    set: (options: Partial<VideoJobStoreOptions>) => Object.assign(store.options, options),
    requests: (path: string, method?: string) => calls.filter((c) => c.path === path && (!method || c.method === method)),
  }
}

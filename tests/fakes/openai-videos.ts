// A fake OpenAI Videos API as OpenAI and relays serve it (docs/PROTOCOLS.md §12.3):
// POST /v1/videos (multipart: model, prompt, seconds, size, input_reference),
// GET /v1/videos/{id} (status, progress), GET /v1/videos/{id}/content (?variant=thumbnail),
// DELETE /v1/videos/{id}, GET /v1/models; errors as `{error: {message, type, param, code}}`.
import sharp from 'sharp'
import { fakePng, jsonBody, parseMultipart, record, sendJson, startServer, type Multipart, type RecordedRequest } from './common'
import { fakeClip, VideoJobStore, type VideoJobStoreOptions } from './video-jobs'

export type FakeOpenaiVideos = Awaited<ReturnType<typeof startFakeOpenaiVideos>>

const STATUS = { queued: 'queued', running: 'in_progress', succeeded: 'completed', failed: 'failed', cancelled: 'failed' } as const

export async function startFakeOpenaiVideos(initial: Partial<VideoJobStoreOptions> & { apiKey?: string } = {}) {
  const apiKey = initial.apiKey ?? 'sk-video'
  const store = new VideoJobStore({ behaviour: 'normal', slowPolls: 5, ...initial })
  /** Queries and downloads per job so far (the flaky behaviours fail the first ones). */
  const attempts = new Map<string, number>()
  const calls: RecordedRequest[] = []

  const fake = await startServer(async (req, res, url, raw) => {
    const isForm = (req.headers['content-type'] ?? '').startsWith('multipart/form-data')
    const body = isForm ? await parseMultipart(req, raw) : jsonBody(raw)
    record(calls, req, url, body)
    const error = (status: number, message: string, type: string, code: string | null) => sendJson(res, status, { error: { message, type, param: null, code } })
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')
    if (req.method === 'GET' && url.pathname === '/v1/models') return sendJson(res, 200, { object: 'list', data: [{ id: 'sora-2', object: 'model' }] })
    if (req.method === 'POST' && url.pathname === '/v1/videos') {
      if (store.options.behaviour === 'busy') return error(429, 'Rate limit reached.', 'requests', 'rate_limit_exceeded')
      if (store.options.behaviour === 'refuse-submit')
        return error(400, 'Your request was blocked by our moderation system.', 'invalid_request_error', 'moderation_blocked')
      const fields = isForm ? (body as { fields: Record<string, string> }).fields : ((body ?? {}) as Record<string, string>)
      if (!fields.prompt) return error(400, "Missing required parameter: 'prompt'.", 'invalid_request_error', 'missing_required_parameter')
      // As Sora does: the reference image must be exactly the size asked for.
      const reference = isForm ? (body as Multipart).files.input_reference : undefined
      if (reference) {
        const { width, height } = await sharp(reference.bytes).metadata()
        if (`${width}x${height}` !== (fields.size ?? '720x1280'))
          return error(400, 'Inpaint image must match the requested width and height', 'invalid_request_error', null)
      }
      const job = store.create(body, 'video')
      if (store.options.behaviour === 'no-id') return sendJson(res, 200, { object: 'video', status: 'queued' })
      return sendJson(res, 200, videoObject(job.id, 'queued', 0, fields))
    }
    const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(url.pathname)
    if (!match) return error(404, 'Not found', 'invalid_request_error', null)
    const id = decodeURIComponent(match[1]!)
    if (req.method === 'DELETE')
      return store.jobs.delete(id)
        ? sendJson(res, 200, { id, object: 'video.deleted', deleted: true })
        : error(404, 'Video not found', 'invalid_request_error', null)
    const job = store.jobs.get(id)
    if (!job || store.options.behaviour === 'unknown-task') return error(404, `Video with id '${id}' not found.`, 'invalid_request_error', null)
    if (match[2]) {
      if (job.status !== 'succeeded') return error(400, 'Video is not ready yet.', 'invalid_request_error', null)
      const downloads = (attempts.get(`content:${id}`) ?? 0) + 1
      attempts.set(`content:${id}`, downloads)
      if (store.options.behaviour === 'flaky-content' && downloads === 1 && !url.searchParams.get('variant'))
        return error(502, 'Bad gateway', 'server_error', null)
      if (store.options.behaviour === 'expired') return error(404, 'The video content has expired.', 'invalid_request_error', 'video_expired')
      const thumbnail = url.searchParams.get('variant') === 'thumbnail'
      res.writeHead(200, { 'content-type': thumbnail ? 'image/png' : 'video/mp4' })
      return res.end(thumbnail ? await fakePng(9, 64) : await fakeClip())
    }
    const queries = (attempts.get(`poll:${id}`) ?? 0) + 1
    attempts.set(`poll:${id}`, queries)
    if (store.options.behaviour === 'flaky-polls' && queries <= 12) return error(503, 'Service temporarily unavailable', 'server_error', null)
    store.poll(id)
    const form = job.input as { fields?: Record<string, string> }
    return sendJson(res, 200, {
      ...videoObject(job.id, STATUS[job.status], job.progress, form.fields ?? {}),
      ...(job.failure
        ? { error: { code: job.failure.code.includes('Sensitive') ? 'moderation_blocked' : 'internal_error', message: job.failure.message } }
        : {}),
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

function videoObject(id: string, status: string, progress: number, fields: Record<string, string>) {
  return {
    id,
    object: 'video',
    model: fields.model ?? 'sora-2',
    status,
    progress,
    created_at: Math.floor(Date.now() / 1000),
    size: fields.size ?? '720x1280',
    seconds: fields.seconds ?? '4',
  }
}

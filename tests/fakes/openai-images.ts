// A fake OpenAI Images API (docs/PROTOCOLS.md §4.1): /v1/images/generations (JSON),
// /v1/images/edits (multipart, mask checked like the real one), /v1/models, bearer keys,
// and the error shapes `{error: {message, type, param, code}}`.
import type http from 'node:http'
import sharp from 'sharp'
import { fakePng, isImage, jsonBody, parseMultipart, pause, record, sendJson, startServer, type Multipart, type RecordedRequest } from './common'

export type OpenaiBehaviour =
  | 'normal'
  | 'slow' // answers after delayMs (100 ms unless set)
  | 'failing' // 500 server_error
  | 'hanging' // image routes never answer
  | 'malformed' // 200 whose data items have neither b64_json nor url
  | 'reject' // 400 from the safety system (rejectCode)
  | 'rate-limited' // 429 rate_limit_exceeded
  | 'no-quota' // 429 insufficient_quota

export type FakeOpenaiOptions = {
  behaviour: OpenaiBehaviour
  delayMs?: number
  /** The only key accepted (Authorization: Bearer …). */
  apiKey: string
  /** Answer with data[].url (served by the fake, or under urlBase) instead of b64_json. */
  responseFormat: 'b64_json' | 'url'
  urlBase?: string
  rejectCode: 'content_policy_violation' | 'moderation_blocked'
  models: string[]
}

const SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto']
const FORMATS = ['png', 'jpeg', 'webp']

export type FakeOpenai = Awaited<ReturnType<typeof startFakeOpenaiImages>>

export async function startFakeOpenaiImages(initial: Partial<FakeOpenaiOptions> = {}) {
  let options: FakeOpenaiOptions = {
    behaviour: 'normal',
    apiKey: 'sk-test',
    responseFormat: 'b64_json',
    rejectCode: 'content_policy_violation',
    models: ['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'dall-e-3', 'gpt-4o'],
    ...initial,
  }
  const calls: RecordedRequest[] = []
  const files = new Map<string, Buffer>()
  let imageNumber = 0

  const error = (res: http.ServerResponse, status: number, message: string, type: string, code: string | null, param: string | null = null) =>
    sendJson(res, status, { error: { message, type, param, code } })

  async function answer(res: http.ServerResponse, params: Record<string, unknown>) {
    if (options.behaviour === 'reject') {
      return error(
        res,
        400,
        'Your request was rejected as a result of our safety system. Your request may contain content that is not allowed by our safety system.',
        'image_generation_user_error',
        options.rejectCode,
      )
    }
    const n = Number(params.n ?? 1)
    if (options.behaviour === 'malformed')
      return sendJson(res, 200, { created: 1, data: Array.from({ length: n }, () => ({ revised_prompt: String(params.prompt) })) })
    const data = []
    for (let i = 0; i < n; i++) {
      const bytes = await fakePng(++imageNumber)
      if (options.responseFormat === 'b64_json') data.push({ b64_json: bytes.toString('base64') })
      else {
        files.set(`img-${imageNumber}.png`, bytes)
        data.push({ url: `${options.urlBase ?? fake.url}/files/img-${imageNumber}.png` })
      }
    }
    const usage = { total_tokens: 4200, input_tokens: 50, output_tokens: 4150, input_tokens_details: { text_tokens: 50, image_tokens: 0 } }
    sendJson(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data,
      background: 'opaque',
      output_format: params.output_format ?? 'png',
      quality: 'medium',
      size: params.size ?? '1024x1024',
      usage,
    })
  }

  const fake = await startServer(async (req, res, url, raw) => {
    const multipart = req.headers['content-type']?.startsWith('multipart/form-data')
    const body = multipart ? await parseMultipart(req, raw) : jsonBody(raw)
    record(calls, req, url, body)
    const route = `${req.method} ${url.pathname}`
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const bytes = files.get(url.pathname.slice('/files/'.length))
      if (!bytes) return sendJson(res, 404, { error: 'not found' })
      res.writeHead(200, { 'content-type': 'image/png' })
      return res.end(bytes)
    }
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (!key)
      return error(
        res,
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
        'invalid_request_error',
        null,
      )
    if (key !== options.apiKey)
      return error(res, 401, `Incorrect API key provided: ${key.slice(0, 3)}***${key.slice(-2)}.`, 'invalid_request_error', 'invalid_api_key')
    if (route === 'GET /v1/models')
      return sendJson(res, 200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'system' })) })
    if (route !== 'POST /v1/images/generations' && route !== 'POST /v1/images/edits')
      return error(res, 404, `Invalid URL (${route})`, 'invalid_request_error', null)

    switch (options.behaviour) {
      case 'hanging':
        return
      case 'failing':
        return error(res, 500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null)
      case 'rate-limited':
        return error(res, 429, 'Rate limit reached for gpt-image-1 on images per minute: Limit 5, Used 5, Requested 1.', 'requests', 'rate_limit_exceeded')
      case 'no-quota':
        return error(res, 429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota')
      case 'slow':
        await pause(options.delayMs ?? 100)
    }
    const json = route === 'POST /v1/images/generations'
    if (json ? typeof body !== 'object' || body === null || multipart : !multipart) {
      return error(
        res,
        400,
        json ? 'We could not parse the JSON body of your request.' : 'Invalid Content-Type header, expected multipart/form-data.',
        'invalid_request_error',
        null,
      )
    }
    const params = json ? (body as Record<string, unknown>) : (body as Multipart).fields
    const problem = paramProblem(params, options.models) ?? (json ? null : await editProblem(body as Multipart))
    if (problem) return error(res, 400, problem.message, 'invalid_request_error', problem.code, problem.param)
    await answer(res, params)
  })

  return {
    url: fake.url,
    calls,
    close: fake.close,
    set(patch: Partial<FakeOpenaiOptions> | OpenaiBehaviour) {
      options = { ...options, ...(typeof patch === 'string' ? { behaviour: patch } : patch) }
    },
    /** Requests to one route, oldest first. */
    requests: (path: string) => calls.filter((c) => c.path === path),
  }
}

type Problem = { param: string; message: string; code: string }

/** The parameter checks both image routes share. */
function paramProblem(params: Record<string, unknown>, models: string[]): Problem | null {
  const invalid = (param: string, message: string) => ({ param, message, code: 'invalid_value' })
  if (typeof params.prompt !== 'string' || params.prompt === '')
    return { param: 'prompt', message: "Missing required parameter: 'prompt'.", code: 'missing_required_parameter' }
  if (params.model !== undefined && !models.includes(String(params.model)))
    return invalid('model', `Invalid value: '${String(params.model)}'. Value must be one of the image models.`)
  const n = Number(params.n ?? 1)
  if (!Number.isInteger(n) || n < 1 || n > 10) return invalid('n', `Invalid 'n': must be an integer between 1 and 10, got ${String(params.n)}.`)
  if (params.size !== undefined && !SIZES.includes(String(params.size)))
    return invalid('size', `Invalid value: '${String(params.size)}'. Supported values are: ${SIZES.map((s) => `'${s}'`).join(', ')}.`)
  if (params.output_format !== undefined && !FORMATS.includes(String(params.output_format)))
    return invalid('output_format', `Invalid value: '${String(params.output_format)}'.`)
  return null
}

/** The edit route's image and mask: a mask must be a PNG with alpha, the same size as the image. */
async function editProblem(form: Multipart): Promise<Problem | null> {
  const image = form.files.image ?? form.files['image[]']
  if (!image) return { param: 'image', message: "Missing required parameter: 'image'.", code: 'missing_required_parameter' }
  if (!(await isImage(image.bytes)))
    return { param: 'image', message: 'Invalid image file or mode for image 1, please check your image file.', code: 'invalid_image_file' }
  const mask = form.files.mask
  if (!mask) return null
  const [imageMeta, maskMeta] = await Promise.all([
    sharp(image.bytes).metadata(),
    sharp(mask.bytes)
      .metadata()
      .catch(() => null),
  ])
  if (!maskMeta || maskMeta.format !== 'png' || !maskMeta.hasAlpha)
    return { param: 'mask', message: 'Invalid mask image format - mask must be a PNG with an alpha channel.', code: 'invalid_image_format' }
  if (maskMeta.width !== imageMeta.width || maskMeta.height !== imageMeta.height)
    return { param: 'mask', message: 'Invalid mask image format - mask size does not match image size.', code: 'invalid_image_format' }
  return null
}

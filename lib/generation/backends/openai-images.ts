import sharp from 'sharp'
import { safeFetchBytes, UnsafeUrlError } from '@/lib/net/safe-fetch'
import { abortError, baseUrl, checkedImage, errorText, isRecord, parseJson, send, sendJson, statusError, testOutcome, type HttpReply } from './http'
import { BackendError, type BackendAdapter, type BackendConfig, type BackendImage, type GenerationJob } from './types'

/**
 * OpenAI Images and relays that speak it (docs/PROTOCOLS.md §4.1). The endpoint is the API
 * base, with or without the trailing /v1. Options: `model` (wins over the job's checkpoint).
 */
export function createOpenaiImagesAdapter(config: BackendConfig): BackendAdapter {
  const api = `${baseUrl(config.endpoint).replace(/\/v1$/, '')}/v1`
  const host = URL.canParse(api) ? new URL(api).host : ''
  const headers: Record<string, string> = config.secret ? { authorization: `Bearer ${config.secret}` } : {}
  const configuredModel = typeof config.options.model === 'string' && config.options.model ? config.options.model : null

  return {
    kind: 'openai-images',

    async submit(job, ctx) {
      if (job.lora) throw new BackendError('REJECTED', 'OpenAI 图片接口不能加载 LoRA：请把这个风格模型绑定到 SD WebUI 或 ComfyUI 后端', false)
      ctx.onProgress(5)
      const model = configuredModel ?? job.checkpoint ?? config.checkpoint ?? 'gpt-image-1'
      const prompt = promptFor(job)
      const size = nearestSize(job.width, job.height)
      let reply: HttpReply
      if (job.mode === 'txt2img') {
        reply = await send(`${api}/images/generations`, {
          json: { model, prompt, n: job.count, size, output_format: 'png' },
          headers,
          signal: ctx.signal,
          createsBilledJob: true,
        })
      } else {
        const form = new FormData()
        const image = job.mode === 'lineart' ? job.controlImage : job.initImage
        if (!image) throw new BackendError('REJECTED', job.mode === 'lineart' ? '线稿上色需要线稿图片' : '这个任务需要一张输入图片', false)
        form.append('image', pngBlob(image), 'image.png')
        if (job.mode === 'inpaint') {
          if (!job.maskImage) throw new BackendError('REJECTED', '局部重绘需要蒙版', false)
          form.append('mask', pngBlob(await transparentMask(job.maskImage, image)), 'mask.png')
        }
        for (const [name, value] of Object.entries({ prompt, model, n: String(job.count), size, output_format: 'png' })) form.append(name, value)
        reply = await send(`${api}/images/edits`, { form, headers, signal: ctx.signal, createsBilledJob: true })
      }
      if (reply.status < 200 || reply.status >= 300) throw failure(reply)
      // A 2xx means the images were made and billed: nothing wrong with the answer may send the call again.
      const answer = parseJson(reply, false)
      const data = isRecord(answer) && Array.isArray(answer.data) ? answer.data : []
      if (data.length === 0) throw new BackendError('BAD_RESPONSE', 'OpenAI 的应答里没有图片', false)
      const images: BackendImage[] = []
      for (const [i, item] of data.slice(0, job.count).entries()) images.push({ bytes: await billedImage(item, i, host, ctx.signal), seed: null })
      ctx.onProgress(100)
      const revisedPrompts = data.map((d) => (isRecord(d) ? d.revised_prompt : undefined)).filter(Boolean)
      return { kind: 'completed', images, log: { model, size, usage: isRecord(answer) ? answer.usage : undefined, revisedPrompts } }
    },

    test: () =>
      testOutcome(async () => {
        const answer = await sendJson(`${api}/models`, { headers, timeoutMs: 10_000 })
        if (!isRecord(answer) || !Array.isArray(answer.data)) throw new BackendError('BAD_RESPONSE', '模型列表格式不对', false)
        const ids = answer.data.map((m) => (isRecord(m) && typeof m.id === 'string' ? m.id : '')).filter(Boolean)
        return { message: `连接正常，共 ${ids.length} 个模型`, models: ids }
      }),
  }
}

const SIZES = [
  { size: '1024x1024', ratio: 1 },
  { size: '1536x1024', ratio: 1.5 },
  { size: '1024x1536', ratio: 1 / 1.5 },
]

/** The GPT-image size closest in shape to the one asked for. */
function nearestSize(width: number, height: number): string {
  const wanted = Math.log(width / height)
  return SIZES.reduce((best, s) => (Math.abs(Math.log(s.ratio) - wanted) < Math.abs(Math.log(best.ratio) - wanted) ? s : best)).size
}

/** This API has no negative prompt and no ControlNet: both are said in words. */
function promptFor(job: GenerationJob): string {
  const lines = [job.prompt]
  if (job.mode === 'lineart') {
    lines.unshift('Colour this line art. Keep every line exactly where it is and fill the areas between them with colour and shading.')
  }
  if (job.negativePrompt.trim()) lines.push(`Avoid: ${job.negativePrompt.trim()}`)
  return lines.filter(Boolean).join('\n')
}

const pngBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'image/png' })

/**
 * Our masks are white where to repaint; OpenAI's are transparent there. The mask is
 * scaled to the image's size, as the API requires both to match.
 */
async function transparentMask(mask: Buffer, image: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata()
  if (!width || !height) throw new BackendError('REJECTED', '输入图片无法解析', false)
  const grey = await sharp(mask).flatten({ background: '#000000' }).resize(width, height, { fit: 'fill' }).greyscale().extractChannel(0).raw().toBuffer()
  const rgba = Buffer.alloc(width * height * 4)
  grey.forEach((value, i) => (rgba[i * 4 + 3] = 255 - value))
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer()
}

/** An image of a billed answer: a failure to read it fails the task (with its refund) rather than generating again. */
async function billedImage(item: unknown, index: number, trustedHost: string, signal: AbortSignal): Promise<Buffer> {
  try {
    return await imageBytes(item, index, trustedHost, signal)
  } catch (err) {
    if (err instanceof BackendError && err.retryable) throw new BackendError(err.code, err.message, false, err.detail, err.userMessage)
    throw err
  }
}

async function imageBytes(item: unknown, index: number, trustedHost: string, signal: AbortSignal): Promise<Buffer> {
  const where = `OpenAI 返回的第 ${index + 1} 张图片`
  if (isRecord(item) && typeof item.b64_json === 'string') return checkedImage(Buffer.from(item.b64_json, 'base64'), where)
  if (!isRecord(item) || typeof item.url !== 'string') throw new BackendError('BAD_RESPONSE', `${where}既没有 b64_json 也没有 url`, true)
  try {
    const { bytes } = await safeFetchBytes(item.url, { trustedHosts: [trustedHost], signal })
    return checkedImage(bytes, where)
  } catch (err) {
    if (signal.aborted) throw abortError(signal)
    if (err instanceof BackendError) throw err
    const blocked = err instanceof UnsafeUrlError
    throw new BackendError('BAD_RESPONSE', `${where}无法下载：${(err as Error).message}`, !blocked)
  }
}

const POLICY_CODES = new Set(['content_policy_violation', 'moderation_blocked'])

/** OpenAI's `{error: {message, type, code}}` on top of the shared status mapping. */
function failure(reply: HttpReply): BackendError {
  let code: unknown
  try {
    const body = JSON.parse(reply.bytes.toString('utf8')) as unknown
    code = isRecord(body) && isRecord(body.error) ? body.error.code : undefined
  } catch {
    return statusError(reply)
  }
  const text = errorText(reply)
  if (reply.status === 400 && typeof code === 'string' && POLICY_CODES.has(code)) {
    return new BackendError('REJECTED', `提示词或图片未通过内容安全审核：${text}`, false, { status: 400, openaiCode: code })
  }
  if (reply.status === 429 && code === 'insufficient_quota')
    return new BackendError('REJECTED', `OpenAI 账户额度不足：${text}`, false, { status: 429, openaiCode: code })
  return statusError(reply, text)
}

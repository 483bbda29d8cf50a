import { safeFetchBytes, UnsafeUrlError } from '@/lib/net/safe-fetch'
import sharp from 'sharp'
import { MAX_INPUT_PIXELS, sniffImageType } from '@/lib/uploads/image-upload'
import { abortError, baseUrl, errorText, numberOption, statusError, type HttpReply } from './http'
import { BackendError, type BackendConfig, type BackendVideo, type GenerationJob, type RunContext, type VideoJob } from './types'

/** The first poll comes within 5 s of the provider accepting a job (the issue pins it). */
export const FIRST_POLL_MS = 3_000
/** Polls back off by half again each time, to at most 15 s apart. */
export const MAX_POLL_MS = 15_000
/**
 * How long polls may keep failing in a row (a provider restarting, a network outage) before
 * the wait gives up: the job was accepted and is billed at the provider, so its clip is
 * waited for; the task's deadline usually ends the wait first.
 */
const MAX_FAILING_MS = 30 * 60_000
/** Tries of a finished clip's download (the provider made it: one 502 must not throw it away). */
const RESULT_TRIES = 3
/** A clip is at most this large (a 10 s 1080p MP4 is well under it). */
const MAX_VIDEO_BYTES = 200 * 1024 * 1024

/** What one poll of a provider's task found. */
export type VideoPoll =
  | { state: 'running'; progress: number | null }
  | { state: 'succeeded'; result: () => Promise<BackendVideo> }
  /** `refused`: the provider's content check refused the prompt or image (its message is the user's to read). */
  | { state: 'failed'; message: string; refused: boolean; code?: string | null }

/** The gaps between polls: FIRST_POLL_MS (options.firstPollMs), then ×1.5 each time up to MAX_POLL_MS (options.maxPollMs). */
export function pollGaps(options: Record<string, unknown>): () => number {
  const first = Math.min(numberOption(options, 'firstPollMs', FIRST_POLL_MS), 5_000)
  const max = Math.min(numberOption(options, 'maxPollMs', MAX_POLL_MS), MAX_POLL_MS)
  let next = first
  return () => {
    const gap = next
    next = Math.min(max, Math.round(next * 1.5))
    return gap
  }
}

/**
 * Follows an accepted video job until it ends: polls with backoff, reports progress (a
 * provider without progress figures gets a slow estimate), survives a few failed polls in
 * a row, and turns the provider's failure into the user's message with a refund.
 */
export async function followVideoJob(
  poll: () => Promise<VideoPoll>,
  ctx: RunContext,
  options: Record<string, unknown>,
  provider: string,
): Promise<BackendVideo> {
  const gaps = pollGaps(options)
  let failingSince: number | null = null
  let polls = 0
  for (;;) {
    await sleep(gaps(), ctx.signal)
    let status: VideoPoll
    try {
      status = await poll()
      failingSince = null
    } catch (error) {
      if (ctx.signal.aborted) throw abortError(ctx.signal)
      failingSince ??= Date.now()
      if (error instanceof BackendError && error.retryable && Date.now() - failingSince < MAX_FAILING_MS) continue
      throw error
    }
    polls++
    if (status.state === 'running') ctx.onProgress(status.progress ?? Math.min(90, 5 + polls * 3))
    if (status.state === 'failed') throw videoFailure(provider, status)
    if (status.state === 'succeeded') {
      const video = await finishedClip(status.result, ctx.signal)
      ctx.onProgress(100)
      return video
    }
  }
}

/** The finished clip, its download tried again after a passing failure (a 5xx, a reset). */
async function finishedClip(result: () => Promise<BackendVideo>, signal: AbortSignal): Promise<BackendVideo> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await result()
    } catch (error) {
      if (signal.aborted) throw abortError(signal)
      if (!(error instanceof BackendError && error.retryable) || attempt >= RESULT_TRIES) throw error
      await sleep(1000 * attempt, signal)
    }
  }
}

/** A provider's failure: a refusal is REJECTED, anything else UPSTREAM_FAILED; both end the task at once (the job was accepted) with the provider's words. */
export function videoFailure(provider: string, failed: { message: string; refused: boolean; code?: string | null }): BackendError {
  const reason = failed.message.trim().slice(0, 200) || '未说明原因'
  if (failed.refused)
    return new BackendError(
      'REJECTED',
      `${provider} 拒绝了任务：${reason}`,
      false,
      { providerCode: failed.code ?? null },
      `内容未通过审核：${reason}，积分已退还`,
    )
  return new BackendError('UPSTREAM_FAILED', `${provider} 生成失败：${reason}`, false, { providerCode: failed.code ?? null }, `生成失败：${reason}，积分已退还`)
}

/** Words providers use for a content-policy refusal, in codes and messages. */
const REFUSAL = /sensitive|policy|moderation|inappropriate|risk|审核|违规|敏感|DataInspection|content_filter/i
export const looksRefused = (...parts: (string | null | undefined)[]) => parts.some((p) => p && REFUSAL.test(p))

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError(signal))
  return new Promise((resolve, reject) => {
    const onAbort = () => (clearTimeout(timer), reject(abortError(signal)))
    const timer = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve()), ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Downloads a provider's file (its URLs expire within hours, so at once): from the
 * provider's own host (trusted as configured) or a public CDN (checked against SSRF).
 * An expired link (403/404) fails the task with a clear message.
 */
export async function downloadResult(url: string, trustedHost: string, signal: AbortSignal, what: 'video' | 'image'): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { bytes } = await safeFetchBytes(url, { trustedHosts: [trustedHost], timeoutMs: 120_000, maxBytes: MAX_VIDEO_BYTES, signal })
      if (what === 'image' && !sniffImageType(bytes)) throw new Error('不是图片')
      if (what === 'video' && !isMp4(bytes)) throw new Error('不是 MP4 视频')
      return bytes
    } catch (error) {
      if (signal.aborted) throw abortError(signal)
      const message = (error as Error).message
      const blocked = error instanceof UnsafeUrlError
      if (blocked || attempt >= 3 || /HTTP 4\d\d/.test(message))
        throw new BackendError('BAD_RESPONSE', `下载生成的${what === 'video' ? '视频' : '图片'}失败（${message}）`, false, { url })
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
    }
  }
}

/** An ISO-BMFF file (MP4/MOV) starts with a box whose type is ftyp. */
export function isMp4(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.subarray(4, 8).toString('latin1') === 'ftyp'
}

/** An image as a data URL: input images reach the provider inline (a site on a private network has no public link). */
export function dataUrl(bytes: Buffer): string {
  return `data:image/${sniffImageType(bytes) ?? 'png'};base64,${bytes.toString('base64')}`
}

/**
 * The ratio a clip from this first frame has: the one of `ratios` nearest the frame's own
 * (the form does not offer a ratio then: the clip follows the frame). Null when the frame
 * cannot be read.
 */
export async function ratioOfFrame(frame: Buffer, ratios: readonly string[]): Promise<string | null> {
  const { width, height } = await sharp(frame, { limitInputPixels: MAX_INPUT_PIXELS })
    .metadata()
    .catch(() => ({ width: undefined, height: undefined }))
  if (!width || !height) return null
  const distance = (ratio: string) => {
    const [w, h] = ratio.split(':').map(Number)
    return Math.abs(Math.log(width / height) - Math.log(w! / h!))
  }
  return [...ratios].sort((a, b) => distance(a) - distance(b))[0] ?? null
}

/** The first frame cut (centred) and scaled to exactly this size, as a PNG: a provider that animates it at that size takes no other. */
export function frameAtSize(frame: Buffer, size: { width: number; height: number }): Promise<Buffer> {
  return sharp(frame, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ ...size, fit: 'cover' })
    .png()
    .toBuffer()
}

/** '16:9' + '720p' → 1280×720; the short side is the resolution's number. */
export function sizeFor(video: Pick<VideoJob, 'ratio' | 'resolution'>): { width: number; height: number } {
  const short = Number.parseInt(video.resolution, 10) || 720
  const [w, h] = video.ratio.split(':').map(Number)
  if (!w || !h) return { width: short, height: short }
  const even = (n: number) => Math.round(n / 2) * 2
  return w >= h ? { width: even((short * w) / h), height: short } : { width: short, height: even((short * h) / w) }
}

/** The video part of a job; an image job sent to a video model is refused. */
export function requireVideo(job: GenerationJob): VideoJob {
  if (!job.video) throw new BackendError('REJECTED', '视频模型只能运行视频任务（文生视频、图生视频）', false)
  return job.video
}

/**
 * What every Bearer-keyed video provider's adapter starts from: its API root (the endpoint is
 * the host root; `prefix` such as /api/v3 is added unless the operator already typed it), that
 * root's host (results are downloaded from it), the key's header and the model name.
 */
export function videoProvider(config: BackendConfig, prefix: string, fallbackModel = '') {
  const root = baseUrl(config.endpoint)
  const api = `${root.endsWith(prefix) ? root.slice(0, -prefix.length) : root}${prefix}`
  return {
    api,
    host: URL.canParse(api) ? new URL(api).host : '',
    headers: (config.secret ? { authorization: `Bearer ${config.secret}` } : {}) as Record<string, string>,
    model: videoModelName(config, fallbackModel),
  }
}

/** The model name a video adapter sends: options.model, else the model's checkpoint field. */
export function videoModelName(config: { options: Record<string, unknown>; checkpoint: string | null }, fallback = ''): string {
  return typeof config.options.model === 'string' && config.options.model ? config.options.model : (config.checkpoint ?? fallback)
}

/** A provider's `{code, message}` error body: a content check's refusal is REJECTED with its message, the rest the shared status mapping. */
export function videoSubmitFailure(provider: string, reply: HttpReply, code: string | null): BackendError {
  const text = errorText(reply)
  if (reply.status === 400 && looksRefused(code, text)) return videoFailure(provider, { message: text, refused: true, code })
  return statusError(reply, text)
}

import { safeFetchBytes } from '@/lib/net/safe-fetch'
import { sniffImageType } from '@/lib/uploads/image-upload'
import type { MjConnection } from './mj-connection'
import { describedPrompts, type MjTask } from './mj-task'
import { BackendError, type BackendImage, type GenerationJob, type ResultButton, type RunContext, type WaitOutcome } from './types'

/** Polls that may fail in a row (proxy restarting, network blip) before the wait gives up. */
const MAX_POLL_FAILURES = 10
/** Polls in a row that may not find the job before it counts as lost (the proxy's memory store forgets on restart). */
const MAX_MISSES = 3

/** Waits for an accepted job through the proxy's shared poller; the notify hook only nudges a poll. */
export async function waitForMjJob(proxy: MjConnection, upstreamId: string, job: GenerationJob, ctx: RunContext): Promise<WaitOutcome> {
  const stopNudges = ctx.onNudge?.(() => proxy.poller.nudge(upstreamId))
  try {
    return await follow(proxy, upstreamId, job, ctx)
  } finally {
    stopNudges?.()
    proxy.poller.forget(upstreamId)
  }
}

async function follow(proxy: MjConnection, upstreamId: string, job: GenerationJob, ctx: RunContext): Promise<WaitOutcome> {
  let misses = 0
  let failures = 0
  let preview: string | null = null
  for (;;) {
    let task: MjTask | null
    try {
      task = await proxy.poller.next(upstreamId, ctx.signal)
      failures = 0
    } catch (error) {
      if (error instanceof BackendError && error.retryable && ++failures < MAX_POLL_FAILURES) continue
      throw error
    }
    if (!task) {
      if (++misses >= MAX_MISSES)
        throw new BackendError('UPSTREAM_FAILED', 'Midjourney Proxy 已不知道这个任务（可能重启过），任务丢失', false, { code: 'BACKEND_LOST' })
      continue
    }
    misses = 0
    if (task.status === 'SUCCESS') return finished(proxy, task, job, ctx)
    if (task.status === 'FAILURE' || task.status === 'CANCEL') {
      const reason = task.failReason ?? '未说明原因'
      throw new BackendError(
        'UPSTREAM_FAILED',
        `Midjourney 任务失败：${reason}`,
        false,
        { failReason: reason },
        `生成失败：${reason.slice(0, 200)}，积分已退还`,
      )
    }
    if (task.status === 'IN_PROGRESS') {
      ctx.onProgress(task.progress)
      if (task.imageUrl && task.imageUrl !== preview && ctx.onPreview) {
        preview = task.imageUrl
        const report = ctx.onPreview.bind(ctx)
        void download(proxy, task.imageUrl, ctx.signal, 1).then(report, () => undefined)
      }
    }
  }
}

async function finished(proxy: MjConnection, task: MjTask, job: GenerationJob, ctx: RunContext): Promise<WaitOutcome> {
  // A describe makes text: its imageUrl is only the picture it was given, not a result.
  const isDescribe = job.mj?.action === 'DESCRIBE' || Boolean(job.mj?.customId?.startsWith('MJ::Picread::'))
  if (!isDescribe && !task.imageUrl) throw new BackendError('BAD_RESPONSE', 'Midjourney 任务成功了，但没有图片地址', false)
  const prompts = isDescribe ? describedPrompts(task) : []
  // Its prompts are what was paid for: none is a failure (refunded), as an image task without an image is.
  if (isDescribe && prompts.length === 0) throw new BackendError('BAD_RESPONSE', 'Midjourney 描述成功了，但没有返回提示词', false)
  const images: BackendImage[] = isDescribe ? [] : [{ bytes: await download(proxy, task.imageUrl!, ctx.signal), seed: null }]
  ctx.onProgress(100)
  return {
    kind: 'completed' as const,
    images,
    buttons: task.buttons.length > 0 ? task.buttons : legacyButtons(task),
    ...(isDescribe ? { prompts } : {}),
    log: { upstreamId: task.id, imageUrl: task.imageUrl, finalPrompt: task.properties.finalPrompt ?? null, promptEn: task.promptEn },
  }
}

/** Images come from the proxy's own host (trusted as configured) or a public CDN (checked against SSRF). */
async function download(proxy: MjConnection, url: string, signal: AbortSignal, attempts = 3): Promise<Buffer> {
  const absolute = new URL(url, `${proxy.base}/`).toString()
  for (let attempt = 1; ; attempt++) {
    try {
      const { bytes } = await safeFetchBytes(absolute, { trustedHosts: [new URL(proxy.base).host], timeoutMs: 60_000, signal })
      if (!sniffImageType(bytes)) throw new Error('不是图片')
      return bytes
    } catch (error) {
      if (signal.aborted) throw new BackendError('ABORTED', '任务已取消', false)
      if (attempt >= attempts)
        throw new BackendError('BAD_RESPONSE', `下载 Midjourney 图片失败（${(error as Error).message}）：${absolute}`, false, { imageUrl: absolute })
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
    }
  }
}

/**
 * The open novicezk builds return no buttons: a grid they made still takes U1-U4, 🔄 and
 * V1-V4 (through /submit/change), written in the legacy customId patterns.
 */
function legacyButtons(task: MjTask): ResultButton[] {
  if (!['IMAGINE', 'VARIATION', 'REROLL', 'BLEND'].includes(task.action ?? '')) return []
  const hash = typeof task.properties.messageHash === 'string' ? task.properties.messageHash : task.id
  const button = (customId: string, label: string, emoji = '') => ({ customId, label, emoji, style: 2 })
  return [
    ...[1, 2, 3, 4].map((i) => button(`MJ::JOB::upsample::${i}::${hash}`, `U${i}`)),
    button(`MJ::JOB::reroll::0::${hash}::SOLO`, '', '🔄'),
    ...[1, 2, 3, 4].map((i) => button(`MJ::JOB::variation::${i}::${hash}`, `V${i}`)),
  ]
}

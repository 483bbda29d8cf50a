import { clientIdOf, historyEntry, historyFailure, outputImages, outputVideos, readQueue, type ComfyConnection } from './comfyui-api'
import { watchSocket } from './comfyui-socket'
import { BackendError, type GenerationJob, type RunContext, type WaitOutcome } from './types'

/**
 * Follows the websocket for progress while /history stays the source of truth. Failed
 * polls that may pass are retried at the poll interval, up to `waitFailureLimit` in a row.
 */
export async function waitForComfyJob(comfy: ComfyConnection, upstreamId: string, job: GenerationJob, ctx: RunContext): Promise<WaitOutcome> {
  const socket = watchSocket(`${comfy.base}/ws?clientId=${encodeURIComponent(clientIdOf(job))}`, comfy.headers, upstreamId, ctx)
  try {
    let misses = 0
    let failures = 0
    for (;;) {
      // The job is accepted and the GPU works on it: a network blip or a proxy's 502
      // while we look must not fail a paid task, only many in a row (or the deadline).
      let queued: boolean
      try {
        const entry = await historyEntry(comfy, upstreamId, ctx.signal)
        if (entry) {
          const failure = historyFailure(entry)
          if (failure) throw failure
          const log = { promptId: upstreamId, failedPolls: failures }
          if (job.video) {
            const videos = await outputVideos(comfy, entry, ctx.signal)
            ctx.onProgress(100)
            return { kind: 'completed', images: [], videos, log }
          }
          const images = await outputImages(comfy, entry, job, ctx.signal)
          ctx.onProgress(100)
          return { kind: 'completed', images, log }
        }
        socket.throwIfFailed()
        const queue = await readQueue(comfy, ctx.signal)
        queued = [...queue.running, ...queue.pending].some((item) => item.promptId === upstreamId)
      } catch (error) {
        if (!(error instanceof BackendError) || !error.retryable || ctx.signal.aborted) throw error
        if (++failures >= comfy.waitFailureLimit) {
          throw new BackendError(error.code, `等待 ComfyUI 的结果时连续 ${failures} 次出错，放弃等待：${error.message}`, error.retryable, error.detail)
        }
        await socket.pause(comfy.pollIntervalMs)
        continue
      }
      failures = 0
      // Neither finished nor queued, several times over (one miss can be the moment between the two).
      misses = queued ? 0 : misses + 1
      if (misses >= 3) throw new BackendError('UPSTREAM_FAILED', 'ComfyUI 已不知道这个任务（可能重启过），任务丢失', false, { code: 'BACKEND_LOST' })
      await socket.pause(comfy.pollIntervalMs)
    }
  } finally {
    socket.close()
  }
}

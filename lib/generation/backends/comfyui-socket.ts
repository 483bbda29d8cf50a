import type net from 'node:net'
import WebSocket from 'ws'
import { allowedAddresses, systemResolver, type Resolver } from '@/lib/net/metadata-address'
import { pinnedLookup } from '@/lib/net/safe-fetch'
import { abortError, isRecord } from './http'
import { BackendError, type RunContext } from './types'

/**
 * Progress from the websocket, and an early wake-up when it says the prompt ended. The
 * socket is a hint: if it cannot connect or drops, history polling carries on alone. Its
 * host is checked like every backend call (no link-local or metadata address) and the
 * socket connects to the checked address.
 */
export function watchSocket(httpUrl: string, headers: Record<string, string>, promptId: string, ctx: RunContext, resolve: Resolver = systemResolver) {
  const url = new URL(httpUrl.replace(/^http/, 'ws'))
  let failure: BackendError | null = null
  // News that arrives between two pauses must still cut the next pause short.
  let news = false
  let onNews = () => {}
  const wake = () => {
    news = true
    onNews()
  }
  let reported = 0
  const onMessage = (raw: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary) return
    let frame: unknown
    try {
      frame = JSON.parse(raw.toString())
    } catch {
      return
    }
    if (!isRecord(frame) || !isRecord(frame.data)) return
    const { type, data } = frame
    // Only our prompt's events reach our clientId; older builds leave prompt_id out of progress.
    if (data.prompt_id !== undefined && data.prompt_id !== promptId) return
    if (type === 'progress' && typeof data.value === 'number' && typeof data.max === 'number' && data.max > 0) {
      const percent = Math.min(99, Math.round((data.value / data.max) * 100))
      if (percent > reported) ctx.onProgress((reported = percent))
    } else if ((type === 'executing' && data.node === null) || type === 'execution_success') {
      wake()
    } else if (type === 'execution_error' || type === 'execution_interrupted') {
      failure = executionFailure(type, data)
      wake()
    }
  }
  let socket: WebSocket | null = null
  let isClosed = false
  const connected = allowedAddresses(url.hostname, resolve).then(
    (addresses) => {
      if (isClosed) return
      socket = new WebSocket(url, { headers, lookup: pinnedLookup(addresses) as unknown as net.LookupFunction })
      socket.on('error', () => {})
      socket.on('message', onMessage)
    },
    () => undefined, // refused or unresolvable: no socket, polling alone (which is refused the same way)
  )
  return {
    /** Settles once the socket is opening, or known not to be (tests). */
    connected,
    throwIfFailed() {
      if (failure) throw failure
    },
    /** Resolves after `ms` or as soon as the socket has news; throws when the task is aborted. */
    pause(ms: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const finish = (error?: BackendError) => {
          clearTimeout(timer)
          ctx.signal.removeEventListener('abort', onAbort)
          news = false
          onNews = () => {}
          if (error) reject(error)
          else resolve()
        }
        const onAbort = () => finish(abortError(ctx.signal))
        const timer = setTimeout(() => finish(), ms)
        onNews = () => finish()
        if (ctx.signal.aborted) onAbort()
        else if (news) finish()
        else ctx.signal.addEventListener('abort', onAbort, { once: true })
      })
    },
    close: () => {
      isClosed = true
      socket?.terminate()
    },
  }
}

/** The error an execution_error / execution_interrupted event stands for (frames and history messages alike). */
export function executionFailure(type: string, data: Record<string, unknown>): BackendError {
  if (type === 'execution_interrupted') return new BackendError('UPSTREAM_FAILED', '任务在 ComfyUI 上被中断', false, data)
  const node = data.node_id !== undefined ? `节点 ${String(data.node_id)}（${String(data.node_type ?? '?')}）` : '工作流'
  return new BackendError('UPSTREAM_FAILED', `ComfyUI 执行出错：${node}：${String(data.exception_message ?? '未知错误').trim()}`, false, {
    exception_type: data.exception_type,
    node_id: data.node_id,
  })
}

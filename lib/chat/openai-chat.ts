import 'server-only'
import { createParser } from 'eventsource-parser'
import { guardedStream } from '@/lib/net/guarded-fetch'
import { chatCompletionsUrl } from './chat-rules'

/** One message as an OpenAI-compatible chat completions API takes it (docs/PROTOCOLS.md §13). */
export type UpstreamMessage =
  | { role: 'system' | 'assistant'; content: string }
  | { role: 'user'; content: string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }> }

export type UpstreamCall = {
  endpoint: string
  key: string | null
  model: string
  messages: UpstreamMessage[]
  signal: AbortSignal
  maxTokens?: number
  /** Called on every read from the upstream, text or not (reasoning, `: keep-alive`): it is alive. */
  onData?: () => void
}

/** Why an upstream answer failed, in words for the user (the status and the server's own message stay in the log). */
export class UpstreamError extends Error {
  constructor(
    readonly userMessage: string,
    detail: string,
  ) {
    super(detail)
    this.name = 'UpstreamError'
  }
}

function statusMessage(status: number): string {
  if (status === 401 || status === 403) return '模型接口拒绝了密钥，请联系管理员'
  if (status === 429) return '模型接口繁忙（请求过多），请稍后再试'
  if (status === 404) return '模型接口地址或模型名称不正确，请联系管理员'
  if (status >= 500) return `模型服务暂时不可用（HTTP ${status}），请稍后再试`
  return `模型接口返回 HTTP ${status}`
}

/**
 * Streams an answer: yields each piece of content as it arrives. Ends normally only when
 * the server said it was finished (a finish_reason or `data: [DONE]`); a connection that
 * ends before that, an error status or a chunk that is not JSON throws UpstreamError.
 */
export async function* streamChat(call: UpstreamCall): AsyncGenerator<string, void, undefined> {
  let res: Response
  try {
    res = await guardedStream(chatCompletionsUrl(call.endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(call.key ? { authorization: `Bearer ${call.key}` } : {}) },
      body: JSON.stringify({ model: call.model, messages: call.messages, stream: true, ...(call.maxTokens && { max_tokens: call.maxTokens }) }),
      signal: call.signal,
    })
  } catch (error) {
    if (call.signal.aborted) throw error
    throw new UpstreamError('无法连接模型接口，请稍后再试', String(error))
  }
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '')
    throw new UpstreamError(statusMessage(res.status), `HTTP ${res.status}: ${text.slice(0, 300)}`)
  }
  const pieces: string[] = []
  let finished = false
  let broken: UpstreamError | null = null
  const parser = createParser({
    onEvent(event) {
      if (broken || finished) return
      if (event.data.trim() === '[DONE]') return void (finished = true)
      let chunk: { choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>; error?: { message?: unknown } }
      try {
        chunk = JSON.parse(event.data)
      } catch {
        broken = new UpstreamError('模型接口返回了无法识别的数据', `malformed chunk: ${event.data.slice(0, 200)}`)
        return
      }
      if (chunk.error) {
        broken = new UpstreamError('模型接口返回错误，请稍后再试', `error chunk: ${JSON.stringify(chunk.error).slice(0, 300)}`)
        return
      }
      const choice = chunk.choices?.[0]
      // PostgreSQL text cannot hold U+0000: an answer carrying one could never be stored, and an
      // answer left unstored is refunded by the sweep although the user read it.
      const content = typeof choice?.delta?.content === 'string' ? choice.delta.content.replaceAll('\u0000', '') : ''
      if (content) pieces.push(content)
      if (choice?.finish_reason) finished = true
    },
  })
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  try {
    for (;;) {
      let next: ReadableStreamReadResult<string>
      try {
        next = await reader.read()
      } catch (error) {
        if (call.signal.aborted) throw error
        throw new UpstreamError('模型接口连接中断', String(error))
      }
      if (next.done) break
      call.onData?.()
      parser.feed(next.value)
      while (pieces.length) yield pieces.shift()!
      if (broken) throw broken
      if (finished) return
    }
    parser.reset({ consume: true })
    while (pieces.length) yield pieces.shift()!
    if (broken) throw broken
    if (!finished) throw new UpstreamError('模型接口连接中断', 'stream ended without finish_reason or [DONE]')
  } finally {
    reader.cancel().catch(() => {})
  }
}

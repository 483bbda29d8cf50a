// A fake OpenAI-compatible chat completions endpoint (the prompt translator): POST
// /v1/chat/completions with a bearer key, answering from a phrase book like a model would.
import { jsonBody, record, sendJson, startServer, type RecordedRequest } from './common'

export type ChatBehaviour = 'normal' | 'failing' | 'empty'

export type FakeChat = Awaited<ReturnType<typeof startFakeChat>>

export async function startFakeChat(phrases: Record<string, string>, key = 'sk-test') {
  let behaviour: ChatBehaviour = 'normal'
  const calls: RecordedRequest[] = []
  const fake = await startServer((req, res, url, raw) => {
    const body = jsonBody(raw) as { model?: string; messages?: Array<{ role: string; content: string }> } | null
    record(calls, req, url, body)
    if (req.headers.authorization !== `Bearer ${key}`)
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: 'Not found' } })
    if (behaviour === 'failing') return sendJson(res, 500, { error: { message: 'The server had an error while processing your request.' } })
    const text = body?.messages?.findLast((m) => m.role === 'user')?.content ?? ''
    const content = behaviour === 'empty' ? '' : (phrases[text] ?? `"${text}"`)
    sendJson(res, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body?.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
    })
  })
  return {
    url: fake.url,
    calls,
    set(next: ChatBehaviour) {
      behaviour = next
    },
    close: fake.close,
  }
}

export type StreamBehaviour =
  /** The whole answer in pieces, then a finish_reason chunk and `data: [DONE]`. */
  | 'normal'
  /** The same, a piece every `delayMs` (default 150 ms): an answer that visibly grows. */
  | 'slow'
  /** A few pieces, then the connection is destroyed: no finish_reason, no [DONE]. */
  | 'cutoff'
  /** The connection closes before any piece. */
  | 'cutoff-before'
  /** HTTP 429 with OpenAI's rate-limit error body. */
  | '429'
  /** HTTP 500 with OpenAI's server error body. */
  | '500'
  /** A chunk that is not JSON (first thing in the stream). */
  | 'malformed'
  /** Two pieces, then a chunk that is not JSON. */
  | 'malformed-later'
  /** A thinking model: `reasoning_content` chunks, then `: keep-alive` comments, 6 of each a `delayMs` apart, then the answer. */
  | 'reasoning'
  /** The headers, then nothing until the client goes away. */
  | 'hold'
  /** The answer with a U+0000 (JSON `\u0000`) in its second piece, as a model can send. */
  | 'nul'

export type FakeChatStream = Awaited<ReturnType<typeof startFakeChatStream>>

type StreamBody = { model?: string; stream?: boolean; messages?: Array<{ role: string; content: unknown }> }

/** The text of the last user message (a string, or the text parts of a multimodal one). */
export function lastUserText(body: StreamBody | null): string {
  const content = body?.messages?.findLast((m) => m.role === 'user')?.content
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : '')).join('')
  return ''
}

/** Splits an answer into pieces of a few characters, as a model's tokens arrive. */
export function pieces(text: string, size = 4): string[] {
  const chars = [...text]
  const out: string[] = []
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''))
  return out
}

/**
 * A fake OpenAI-compatible chat model that streams: POST /v1/chat/completions with
 * `stream: true` answers in the real server-sent-event format (docs/PROTOCOLS.md §13):
 * `data: {"choices":[{"delta":{"content":"..."}}]}` chunks, a chunk with finish_reason,
 * then `data: [DONE]`. The answer comes from `answer(lastUserText)`; behaviours cover a slow
 * model, a thinking one, one that never answers, a cut-off stream, 429, 500 and a malformed chunk.
 */
export async function startFakeChatStream(options: { key?: string; answer?: (text: string) => string; delayMs?: number } = {}) {
  const key = options.key ?? 'sk-chat'
  const answer = options.answer ?? ((text: string) => `你说的是：${text}。这是一个**测试回答**。`)
  let behaviour: StreamBehaviour = 'normal'
  const calls: RecordedRequest[] = []
  const fake = await startServer(async (req, res, url, raw) => {
    const body = jsonBody(raw) as StreamBody | null
    record(calls, req, url, body)
    if (req.headers.authorization !== `Bearer ${key}`)
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } })
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: 'Not found' } })
    if (behaviour === '429')
      return sendJson(
        res,
        429,
        { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '1' },
      )
    if (behaviour === '500') return sendJson(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } })
    const id = `chatcmpl-${calls.length}`
    const created = Math.floor(Date.now() / 1000)
    const chunk = (delta: Record<string, string>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body?.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
    res.flushHeaders()
    const delay = behaviour === 'slow' || behaviour === 'reasoning' ? (options.delayMs ?? 150) : 5
    const wait = () => new Promise((resolve) => setTimeout(resolve, delay))
    if (behaviour === 'cutoff-before') return res.destroy()
    if (behaviour === 'malformed') return res.end('data: {"choices":[{"delta":{"content":\n\n')
    if (behaviour === 'hold') return new Promise((resolve) => res.on('close', resolve))
    res.write(chunk({ role: 'assistant', content: '' }))
    for (let i = 0; behaviour === 'reasoning' && i < 12; i++) {
      if (res.destroyed) return
      res.write(i < 6 ? chunk({ reasoning_content: `思考${i}` }) : ': keep-alive\n\n')
      await wait()
    }
    const parts = pieces(answer(lastUserText(body)))
    for (const [i, part] of parts.entries()) {
      if (res.destroyed) return
      if (behaviour === 'cutoff' && i === 3) return res.destroy()
      if (behaviour === 'malformed-later' && i === 2) return res.end('data: not json at all\n\n')
      res.write(chunk({ content: behaviour === 'nul' && i === 1 ? `${part}\u0000` : part }))
      await wait()
    }
    res.write(chunk({}, 'stop'))
    res.end('data: [DONE]\n\n')
  })
  return {
    url: fake.url,
    key,
    calls,
    set(next: StreamBehaviour) {
      behaviour = next
    },
    close: fake.close,
  }
}

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

import { createParser } from 'eventsource-parser'
import { getStoredToken } from './token-store'

export type StreamEvent = { event: string; data: string }

/**
 * Reads a server-sent-event stream with fetch, so the usual Authorization header goes
 * with it (EventSource cannot send headers). Resolves when the stream ends; rejects when
 * it cannot be opened or breaks. The caller decides whether to open it again. `onOpen` is
 * called once the server has accepted the stream.
 */
export async function readEventStream(path: string, onEvent: (event: StreamEvent) => void, signal: AbortSignal, onOpen?: () => void): Promise<void> {
  const token = getStoredToken()
  const res = await fetch(path, { headers: { Accept: 'text/event-stream', ...(token ? { Authorization: token } : {}) }, signal, cache: 'no-store' })
  // A page in its place (a proxy's, say) is no stream either.
  if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error(`event stream ${path}: HTTP ${res.status}`)
  onOpen?.()
  const parser = createParser({ onEvent: (e) => onEvent({ event: e.event ?? 'message', data: e.data }) })
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    parser.feed(value)
  }
}

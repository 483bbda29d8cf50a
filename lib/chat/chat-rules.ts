// Pure rules of AI chat (no database, no network): shared by the server code and unit tests.

/** The chat completions URL of an OpenAI-compatible base ("https://api.openai.com", ".../v1", ".../api/v3" or the full URL). */
export function chatCompletionsUrl(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '')
  if (trimmed.endsWith('/chat/completions')) return trimmed
  return /\/v\d+[a-z]*$/.test(trimmed) ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`
}

/** The start of the current Beijing day (UTC+8, no daylight saving): daily allowances reset then. */
export function beijingDayStart(now = new Date()): Date {
  const shifted = new Date(now.getTime() + 8 * 3600_000)
  return new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()) - 8 * 3600_000)
}

/**
 * The longest an answer streams, whatever the model sends: then it ends as a stop does. The
 * sweeper takes an empty answer row only when it is older than this plus a margin, so it never
 * takes one still streaming (docs/DECISIONS.md, AI chat).
 */
export const ANSWER_TOTAL_MS = 10 * 60_000
export const STALE_ANSWER_MS = ANSWER_TOTAL_MS + 5 * 60_000

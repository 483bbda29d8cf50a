import { AppError } from '@/lib/http/app-error'
import { guardedFetch } from '@/lib/net/guarded-fetch'
import { getConfigValue } from '@/lib/site-config/store'
import { hasCjk, normalizeDashes, splitPrompt } from './compose-prompt'

const TIMEOUT_MS = 30_000

const INSTRUCTIONS =
  'You translate prompts for the Midjourney image generator into English. Reply with the English prompt only: ' +
  'no quotes, no notes. Keep names, numbers, URLs and words that are already English as they are.'

const failed = (why: string) => new AppError('BAD_GATEWAY', `提示词翻译失败（${why}），未扣除积分，请稍后重试或直接使用英文提示词`)

/** The chat completions URL of an OpenAI-compatible base ("https://api.openai.com", ".../v1" or the full URL). */
export function chatCompletionsUrl(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '')
  if (trimmed.endsWith('/chat/completions')) return trimmed
  return /\/v\d+[a-z]*$/.test(trimmed) ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`
}

/** One text into English through the configured chat model; throws a clear error, never returns garbage. */
async function translate(text: string): Promise<string> {
  const [base, key, model] = await Promise.all([
    getConfigValue<string>('TRANSLATE_API_BASE'),
    getConfigValue<string>('TRANSLATE_API_KEY'),
    getConfigValue<string>('TRANSLATE_MODEL'),
  ])
  if (!base || !model) throw failed('翻译接口未配置，请联系管理员')
  let answer: unknown
  try {
    const res = await guardedFetch(chatCompletionsUrl(base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({
        model,
        temperature: 0,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: text },
        ],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    if (!res.ok) throw failed(`翻译接口返回 HTTP ${res.status}`)
    answer = await res.json().catch(() => null)
  } catch (error) {
    if (error instanceof AppError) throw error
    throw failed((error as Error).name === 'TimeoutError' ? `${TIMEOUT_MS / 1000} 秒内没有应答` : '无法连接翻译接口')
  }
  const content = (answer as { choices?: Array<{ message?: { content?: unknown } }> } | null)?.choices?.[0]?.message?.content
  const english =
    typeof content === 'string'
      ? content
          .trim()
          .replace(/^["“'](.*)["”']$/s, '$1')
          .trim()
      : ''
  if (!english) throw failed('翻译接口没有返回译文')
  const oneLine = english.replace(/\s*\n+\s*/g, ' ')
  // What was sent had no parameters (they are kept as typed): any in the answer came from the
  // model, and one such as --turbo would run a speed nobody chose or was checked for.
  if (splitPrompt(normalizeDashes(oneLine)).params) throw failed('译文中含有 Midjourney 参数')
  return oneLine
}

/** Whether translateForMj would ask the (paid) translation model: Chinese to translate, and translation on. */
export async function wouldTranslate(description: string, params: string): Promise<boolean> {
  const noText = /(^|\s)--no\s+(.+?)(?=\s--|$)/.exec(params)?.[2] ?? ''
  return (hasCjk(description) || hasCjk(noText)) && (await getConfigValue<boolean>('TRANSLATE_ENABLED'))
}

/**
 * When translation is on, the Chinese in a prompt's description and in `--no` values goes
 * to English before the task is charged (other parameters are kept as typed). Null when
 * nothing was translated.
 */
export async function translateForMj(description: string, params: string): Promise<{ description: string; params: string } | null> {
  if (!(await wouldTranslate(description, params))) return null
  const needsDescription = hasCjk(description)
  const noValue = /(^|\s)--no\s+(.+?)(?=\s--|$)/.exec(params)
  const noText = noValue?.[2] ?? ''
  const needsNo = hasCjk(noText)
  const [englishDescription, englishNo] = await Promise.all([needsDescription ? translate(description) : description, needsNo ? translate(noText) : null])
  return {
    description: englishDescription,
    params: englishNo && noValue ? params.replace(noValue[0], `${noValue[1]}--no ${englishNo}`) : params,
  }
}

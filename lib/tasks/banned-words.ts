import { badRequest } from '@/lib/http/app-error'
import { getConfigValue } from '@/lib/site-config/store'

/** The first banned word (site config BANNED_WORDS, one per line) found in the text, case-insensitive. */
export function findBannedWord(text: string, bannedList: string): string | null {
  const haystack = text.toLowerCase()
  for (const line of bannedList.split(/\r?\n/)) {
    const word = line.trim()
    if (word && haystack.includes(word.toLowerCase())) return word
  }
  return null
}

/** Refuses a prompt with a banned word before anything is charged, naming the word. */
export async function assertNoBannedWords(...texts: string[]): Promise<void> {
  const list = await getConfigValue<string>('BANNED_WORDS')
  if (!list.trim()) return
  const word = findBannedWord(texts.join('\n'), list)
  if (word) throw badRequest(`提示词包含违禁词“${word}”，请修改后再提交`)
}

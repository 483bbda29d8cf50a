import { getConfigValue } from './store'

/** The first banned word (site config BANNED_WORDS, one per line) found in the text, case-insensitive. */
export function findBannedWord(text: string, bannedList: string): string | null {
  const haystack = text.toLowerCase()
  for (const line of bannedList.split(/\r?\n/)) {
    const word = line.trim()
    if (word && haystack.includes(word.toLowerCase())) return word
  }
  return null
}

/** The first word of the site's banned-word list in these texts, or null (an empty list bans nothing). */
export async function bannedWordIn(...texts: string[]): Promise<string | null> {
  const list = await getConfigValue<string>('BANNED_WORDS')
  return list.trim() ? findBannedWord(texts.join('\n'), list) : null
}

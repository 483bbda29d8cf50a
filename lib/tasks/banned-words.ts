import { badRequest } from '@/lib/http/app-error'
import { bannedWordIn } from '@/lib/site-config/banned-words'

export { findBannedWord } from '@/lib/site-config/banned-words'

/** Refuses a prompt with a banned word before anything is charged, naming the word. */
export async function assertNoBannedWords(...texts: string[]): Promise<void> {
  const word = await bannedWordIn(...texts)
  if (word) throw badRequest(`提示词包含违禁词“${word}”，请修改后再提交`)
}

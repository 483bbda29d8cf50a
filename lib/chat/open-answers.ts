import { tooManyRequests } from '@/lib/http/app-error'

/**
 * The answers this process is streaming. A web server that shuts down cannot wait the
 * minutes an answer may take, and a process that leaves mid-answer stores nothing of it:
 * the text the user saw would be gone and the sweeper would refund it 15 minutes later.
 * So the server (scripts/next-server.mjs) stops them: each keeps what has arrived (marked
 * incomplete) or, with nothing yet, is refunded, and its stream ends with `done` or `error`.
 * The set lives on globalThis because that script is outside Next.js's bundles.
 */
export type OpenAnswer = {
  /** Stops the answer; settles once it is stored and its stream has ended. */
  stop(): Promise<void>
}

const holder = globalThis as unknown as { aiimgOpenAnswers?: Set<OpenAnswer>; aiimgAnswersPerUser?: Map<string, number> }

export function openAnswers(): Set<OpenAnswer> {
  return (holder.aiimgOpenAnswers ??= new Set())
}

export async function stopOpenAnswers(): Promise<void> {
  await Promise.all([...openAnswers()].map((answer) => answer.stop()))
}

/**
 * Answers one user may have under way in this process at once. Each holds its question, with
 * its pictures inline (tens of MB), until the answer ends, up to 10 minutes: without a bound,
 * one account sending many at once could run the web process out of memory.
 */
export const ANSWERS_PER_USER = 3

/** Counts one more answer under way for the user, or refuses it; the returned function counts it off (once). */
export function takeAnswerSlot(userId: string): () => void {
  const perUser = (holder.aiimgAnswersPerUser ??= new Map())
  const taken = perUser.get(userId) ?? 0
  if (taken >= ANSWERS_PER_USER) throw tooManyRequests(`你已有 ${ANSWERS_PER_USER} 个回答正在生成，请等它们完成后再发送`)
  perUser.set(userId, taken + 1)
  let released = false
  return () => {
    if (released) return
    released = true
    const left = (perUser.get(userId) ?? 1) - 1
    if (left > 0) perUser.set(userId, left)
    else perUser.delete(userId)
  }
}

import 'server-only'
import { db, type Tx } from '@/lib/db'
import { conflict } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from '@/lib/ledger/post-movement'
import { beijingDayStart, STALE_ANSWER_MS } from './chat-rules'

export const SWEEP_CHAT_ANSWERS_JOB = 'sweep-chat-answers'

/**
 * Nothing of this answer was delivered: its row goes, its points come back (once by reference)
 * and a membership answer's count in its day's allowance comes back. Returns the user's points now.
 */
export async function dropAnswer(answer: { id: string; userId: string; points: number }): Promise<number> {
  return db().$transaction(async (tx) => {
    const row = await tx.chatMessage.findFirst({ where: { id: answer.id, content: '' }, select: { paidBy: true, createdAt: true } })
    // Counted only if this statement deletes it: an answer that got its text meanwhile stays.
    const { count } = row ? await tx.chatMessage.deleteMany({ where: { id: answer.id, content: '' } }) : { count: 0 }
    if (count && row!.paidBy === 'MEMBERSHIP')
      await tx.chatAllowanceDay.updateMany({
        where: { day: beijingDayStart(row!.createdAt), userId: answer.userId, used: { gt: 0 } },
        data: { used: { decrement: 1 } },
      })
    if (count && answer.points) {
      try {
        await postMovement(tx, { userId: answer.userId, account: 'POINTS', kind: 'CHAT_REFUND', amount: answer.points, reference: `chat:${answer.id}:refund` })
      } catch (error) {
        if (!(error instanceof AlreadyBookedError)) throw error
      }
    }
    return (await tx.user.findUniqueOrThrow({ where: { id: answer.userId }, select: { points: true } })).points
  })
}

/**
 * Deleting an answer row that is being generated (no text yet, not swept) would keep its charge:
 * dropAnswer refunds only a row it deletes itself. So a conversation's delete and a `replaceFrom`
 * send lock the conversation, then refuse (409) while it has one; a send's new answer row waits
 * for that lock (its foreign key), so none starts in between.
 */
export async function refuseWhileAnswering(tx: Tx, conversationId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "ChatConversation" WHERE "id" = ${conversationId} FOR UPDATE`
  if (await tx.chatMessage.count({ where: { conversationId, role: 'ASSISTANT', content: '' } })) throw conflict('回答生成中，请稍后再试')
}

/**
 * The worker's job: answers a crashed web process left without text are refunded like failed
 * ones. Only rows older than any stream may last (ANSWER_TOTAL_MS) plus a margin: an
 * answer's text is written when its stream ends, so a younger empty row may still be streaming.
 * Allowance counts of days before yesterday are pruned. Returns how many answers were dropped.
 */
export async function sweepChatAnswers(now = new Date()): Promise<number> {
  await db().chatAllowanceDay.deleteMany({ where: { day: { lt: new Date(beijingDayStart(now).getTime() - 86_400_000) } } })
  const stale = await db().chatMessage.findMany({
    where: { role: 'ASSISTANT', content: '', createdAt: { lt: new Date(now.getTime() - STALE_ANSWER_MS) } },
    select: { id: true, userId: true, points: true },
    orderBy: { createdAt: 'asc' },
    take: 100,
  })
  let dropped = 0
  for (const answer of stale) {
    // One answer whose refund is refused (its owner's points at the column's limit) must not hold up the others.
    try {
      await dropAnswer(answer)
      dropped++
    } catch (error) {
      console.error(`[chat] crashed answer ${answer.id} not refunded:`, error instanceof Error ? error.message : error)
    }
  }
  return dropped
}

import 'server-only'
import { db, type Tx } from '@/lib/db'
import { conflict } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from '@/lib/ledger/post-movement'

export const SWEEP_CHAT_ANSWERS_JOB = 'sweep-chat-answers'
/** An answer with no text this old was cut off by a crash: no stream waits that long for its first piece. */
const STALE_AFTER_MS = 10 * 60_000

/**
 * Nothing of this answer was delivered: its row goes (it does not count against a daily
 * allowance) and its points come back, once by reference. Returns the user's points now.
 */
export async function dropAnswer(answer: { id: string; userId: string; points: number }): Promise<number> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.chatMessage.deleteMany({ where: { id: answer.id, content: '' } })
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

/** The worker's job: answers a crashed web process left without text are refunded like failed ones. */
export async function sweepChatAnswers(now = new Date()): Promise<number> {
  const stale = await db().chatMessage.findMany({
    where: { role: 'ASSISTANT', content: '', createdAt: { lt: new Date(now.getTime() - STALE_AFTER_MS) } },
    select: { id: true, userId: true, points: true },
    take: 100,
  })
  for (const answer of stale) await dropAnswer(answer)
  return stale.length
}

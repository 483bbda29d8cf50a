import 'server-only'
import { db } from '@/lib/db'
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

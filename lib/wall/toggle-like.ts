import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import { afterWriting } from '@/lib/signals/answer-cache'

/**
 * Likes a work, or takes the like back: one row per user and work (its key), and the
 * counter moves in the same transaction only when a row was really added or removed.
 */
export async function toggleLike(userId: string, workId: string): Promise<{ liked: boolean; likes: number }> {
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      const work = await tx.wallWork.findUnique({ where: { id: workId }, select: { status: true } })
      if (!work || work.status !== 'APPROVED') throw notFound('作品不存在或未公开')
      const added = await tx.wallLike.createMany({ data: [{ workId, userId }], skipDuplicates: true })
      if (added.count === 1) {
        const { likes } = await tx.wallWork.update({ where: { id: workId }, data: { likes: { increment: 1 } }, select: { likes: true } })
        return { liked: true, likes }
      }
      const removed = await tx.wallLike.deleteMany({ where: { workId, userId } })
      const { likes } = await tx.wallWork.update({ where: { id: workId }, data: { likes: { decrement: removed.count } }, select: { likes: true } })
      return { liked: false, likes }
    }),
  )
}

import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'

/** Keeps a work in the caller's 我的收藏, or takes it out (one row per user and work). */
export async function toggleFavorite(userId: string, workId: string): Promise<{ favorited: boolean }> {
  return db().$transaction(async (tx) => {
    const work = await tx.wallWork.findUnique({ where: { id: workId }, select: { status: true } })
    if (!work || work.status !== 'APPROVED') throw notFound('作品不存在或未公开')
    const added = await tx.wallFavorite.createMany({ data: [{ workId, userId }], skipDuplicates: true })
    if (added.count === 1) return { favorited: true }
    await tx.wallFavorite.deleteMany({ where: { workId, userId } })
    return { favorited: false }
  })
}

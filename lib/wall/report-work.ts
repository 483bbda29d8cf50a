import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'

/** A user reports a work on the wall (once each; again changes nothing); the console lists reported works for the admin to hide. */
export async function reportWork(userId: string, workId: string): Promise<{ reported: true }> {
  return db().$transaction(async (tx) => {
    const work = await tx.wallWork.findUnique({ where: { id: workId }, select: { status: true } })
    if (!work || work.status !== 'APPROVED') throw notFound('作品不存在或未公开')
    const added = await tx.wallReport.createMany({ data: [{ workId, userId }], skipDuplicates: true })
    if (added.count === 1) await tx.wallWork.update({ where: { id: workId }, data: { reports: { increment: 1 } } })
    return { reported: true }
  })
}

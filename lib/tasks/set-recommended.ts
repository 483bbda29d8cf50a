import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, notFound } from '@/lib/http/app-error'

/** Recommends a finished task to the image wall, or takes it off (audited). */
export async function setRecommended(actor: SessionUser, ip: string, id: string, isRecommended: boolean): Promise<{ id: string; isRecommended: boolean }> {
  return db().$transaction(async (tx) => {
    const task = await tx.task.findUnique({ where: { id }, select: { status: true } })
    if (!task) throw notFound('任务不存在')
    if (isRecommended && task.status !== 'SUCCESS') throw conflict('只有生成成功的作品可以推荐')
    await tx.task.update({ where: { id }, data: { isRecommended } })
    await recordAudit(tx, actor, ip, { action: isRecommended ? 'task.recommend' : 'task.unrecommend', targetType: 'Task', targetId: id })
    return { id, isRecommended }
  })
}

import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { conflict, notFound } from '@/lib/http/app-error'

export async function deleteCustomModel(actor: SessionUser, ip: string, id: number) {
  return db().$transaction(async (tx) => {
    if (!(await tx.customModel.count({ where: { id } }))) throw notFound('风格模型不存在')
    if (await tx.task.count({ where: { customModelId: id, status: 'PENDING' } })) throw conflict('该风格模型还有进行中的任务，请稍后再删除')
    await tx.customModel.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'custom-model.delete', targetType: 'CustomModel', targetId: String(id) })
    return { id }
  })
}

import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { isAdmin } from '@/lib/auth/permissions'
import { conflict, forbidden, notFound } from '@/lib/http/app-error'
import { auditedModel, MODEL_SELECT } from './admin-model-views'

export const DELETE_CONFIGURED_ADMIN_ONLY = '只有管理员可以删除配置了接口地址或密钥的模型'

/** A model that ran tasks keeps them pointing at it: it can only be disabled. */
export async function deleteModel(actor: SessionUser, ip: string, id: string): Promise<{ id: string }> {
  return db().$transaction(async (tx) => {
    const model = await tx.aiModel.findUnique({ where: { id }, select: MODEL_SELECT })
    if (!model) throw notFound('模型不存在')
    // Removing it clears its endpoint and key too, which a MANAGER may not do (model-changes.ts).
    if ((model.endpoint || model.secretEnc) && !isAdmin(actor.role)) throw forbidden(DELETE_CONFIGURED_ADMIN_ONLY)
    const used = await tx.task.count({ where: { modelId: id } })
    if (used) throw conflict(`该模型已有 ${used} 个任务记录，不能删除，可以停用`)
    if (await tx.customModel.count({ where: { modelId: id } })) throw conflict('有风格模型使用该模型，请先删除或改绑')
    await tx.aiModel.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'model.delete', targetType: 'AiModel', targetId: id, before: auditedModel(model) })
    return { id }
  })
}

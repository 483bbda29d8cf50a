import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { notFound } from '@/lib/http/app-error'
import { assertBoundModel } from './bound-model'
import { CUSTOM_MODEL_SELECT } from './custom-model-views'
import type { TCustomModelInput } from './schemas'

export async function updateCustomModel(actor: SessionUser, ip: string, id: number, input: Partial<TCustomModelInput>) {
  return db().$transaction(async (tx) => {
    // Edits of one preset take turns: the check below is of the preset as it will be.
    await tx.$queryRaw`SELECT 1 FROM "CustomModel" WHERE "id" = ${id} FOR UPDATE`
    const current = await tx.customModel.findUnique({ where: { id }, select: { modelId: true, lora: true } })
    if (!current) throw notFound('风格模型不存在')
    await assertBoundModel(tx, input.modelId ?? current.modelId, input.lora !== undefined ? input.lora : current.lora)
    const row = await tx.customModel.update({
      where: { id },
      data: { ...input, defaultParams: input.defaultParams as Prisma.InputJsonValue | undefined },
      select: CUSTOM_MODEL_SELECT,
    })
    await recordAudit(tx, actor, ip, { action: 'custom-model.update', targetType: 'CustomModel', targetId: String(id), after: input as Prisma.InputJsonValue })
    return row
  })
}

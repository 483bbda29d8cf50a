import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { assertBoundModel } from './bound-model'
import { CUSTOM_MODEL_SELECT } from './custom-model-views'
import type { TCustomModelInput } from './schemas'

export async function createCustomModel(actor: SessionUser, ip: string, input: TCustomModelInput) {
  return db().$transaction(async (tx) => {
    await assertBoundModel(tx, input.modelId, input.lora)
    const row = await tx.customModel.create({ data: { ...input, defaultParams: input.defaultParams as Prisma.InputJsonValue }, select: CUSTOM_MODEL_SELECT })
    await recordAudit(tx, actor, ip, {
      action: 'custom-model.create',
      targetType: 'CustomModel',
      targetId: String(row.id),
      after: { name: row.name, price: row.price },
    })
    return row
  })
}

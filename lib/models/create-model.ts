import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { isAdmin } from '@/lib/auth/permissions'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { forbidden } from '@/lib/http/app-error'
import { announceQueueChange, wakeLocalRunner } from '@/lib/signals/queue-signal'
import { auditedModel, MODEL_SELECT, toAdminModelRow, type AdminModelRow } from './admin-model-views'
import { ENDPOINT_ADMIN_ONLY, SECRET_ADMIN_ONLY, secretData } from './model-changes'
import { assertEndpointAllowed } from './model-endpoint'
import { NO_LOAD } from './model-load'
import { assertPoolFits } from './pool-members'
import type { TModelInput } from './schemas'

export async function createModel(actor: SessionUser, ip: string, input: TModelInput): Promise<AdminModelRow> {
  const { secret, ...data } = input
  if (secret && !isAdmin(actor.role)) throw forbidden(SECRET_ADMIN_ONLY)
  if (data.endpoint && !isAdmin(actor.role)) throw forbidden(ENDPOINT_ADMIN_ONLY)
  if (data.endpoint) await assertEndpointAllowed(data.endpoint)
  const row = await db().$transaction(async (tx) => {
    await assertPoolFits(tx, data)
    const model = await tx.aiModel.create({
      data: { ...data, prices: data.prices as Prisma.InputJsonValue, options: data.options as Prisma.InputJsonValue, ...secretData(secret) },
      select: MODEL_SELECT,
    })
    await recordAudit(tx, actor, ip, { action: 'model.create', targetType: 'AiModel', targetId: model.id, after: auditedModel(model) })
    await announceQueueChange(tx) // a new instance of a pool can take its queued tasks
    return toAdminModelRow(model, NO_LOAD)
  })
  wakeLocalRunner()
  return row
}

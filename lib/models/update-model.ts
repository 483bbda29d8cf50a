import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { isAdmin } from '@/lib/auth/permissions'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { LORA_BACKENDS } from '@/lib/generation/backends/types'
import { badRequest, notFound } from '@/lib/http/app-error'
import { announceQueueChange, wakeLocalRunner } from '@/lib/signals/queue-signal'
import { auditedModel, MODEL_SELECT, toAdminModelRow, type AdminModelRow } from './admin-model-views'
import { assertChangesAllowed, secretData } from './model-changes'
import { assertEndpointAllowed } from './model-endpoint'
import { NO_LOAD } from './model-load'
import { assertPoolFits } from './pool-members'
import { modelSetupProblem } from './rules'
import type { TModelUpdate } from './schemas'

export async function updateModel(actor: SessionUser, ip: string, id: string, input: TModelUpdate): Promise<AdminModelRow> {
  const { secret, ...data } = input
  // Resolved before the transaction (no row lock held over DNS). A MANAGER's endpoint can
  // only be the stored one, which the transaction checks.
  if (data.endpoint && isAdmin(actor.role)) await assertEndpointAllowed(data.endpoint)
  const row = await db().$transaction(async (tx) => {
    // Locked first: a preset being bound to it meanwhile (FOR SHARE) is then seen by the check below.
    await tx.$queryRaw`SELECT 1 FROM "AiModel" WHERE "id" = ${id} FOR UPDATE`
    const before = await tx.aiModel.findUnique({ where: { id }, select: MODEL_SELECT })
    if (!before) throw notFound('模型不存在')
    assertChangesAllowed(actor, before, { ...data, secret })
    const backend = data.backend ?? before.backend
    if (backend !== 'demo' && (data.endpoint ?? before.endpoint) === '') throw badRequest('请填写接口地址')
    const pairProblem = modelSetupProblem(data.type ?? before.type, backend, data.options ?? before.options)
    if (pairProblem) throw badRequest(pairProblem)
    const loraLost = backend !== before.backend && !LORA_BACKENDS.includes(backend)
    if (loraLost && (await tx.customModel.count({ where: { modelId: id, lora: { not: null } } })) > 0)
      throw badRequest('有带 LoRA 的风格模型绑定在这个模型上，而所选后端不能加载 LoRA：请先清空它们的 LoRA 或改绑其他模型')
    // Only a change of pool, kind or speeds can make a pool mixed: switching a member off or re-sorting it always goes.
    if (data.pool !== undefined || data.type !== undefined || data.backend !== undefined || data.options !== undefined)
      await assertPoolFits(tx, {
        id,
        pool: data.pool === undefined ? before.pool : data.pool,
        type: data.type ?? before.type,
        backend,
        options: data.options ?? before.options,
      })
    const model = await tx.aiModel.update({
      where: { id },
      data: {
        ...data,
        prices: data.prices as Prisma.InputJsonValue | undefined,
        options: data.options as Prisma.InputJsonValue | undefined,
        ...secretData(secret),
      },
      select: MODEL_SELECT,
    })
    await recordAudit(tx, actor, ip, {
      action: 'model.update',
      targetType: 'AiModel',
      targetId: id,
      before: auditedModel(before),
      after: auditedModel(model, Boolean(secret)),
    })
    await announceQueueChange(tx) // enabled again, more slots: its queued tasks may run now
    return toAdminModelRow(model, NO_LOAD)
  })
  wakeLocalRunner()
  return row
}

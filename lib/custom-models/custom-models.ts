import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { LORA_BACKENDS } from '@/lib/generation/backends/types'
import { badRequest, conflict, notFound } from '@/lib/http/app-error'
import { updateSchemaOf, z } from '@/lib/zod'

/** Branded presets bound to a backend model (/admin/custom_model_mana; 小狸猫 uses them). */
export const ZCustomModelInputSchema = z
  .object({
    name: z.string().trim().min(1, '请填写名称').max(40),
    modelId: z.string().min(1, '请选择后端模型'),
    checkpoint: z.string().trim().max(200).nullable().default(null),
    lora: z.string().trim().max(200).nullable().default(null),
    triggerWords: z.string().trim().max(500).default(''),
    defaultParams: z.record(z.string(), z.unknown()).default({}),
    cover: z.string().trim().max(500).nullable().default(null),
    price: z.number().int('价格必须是整数').min(0).max(1_000_000),
    enabled: z.boolean().default(true),
    sort: z.number().int().min(-10000).max(10000).default(0),
  })
  .strict()
export const ZCustomModelUpdateSchema = updateSchemaOf(ZCustomModelInputSchema)
type Input = z.infer<typeof ZCustomModelInputSchema>

const SELECT = { id: true, name: true, modelId: true, checkpoint: true, lora: true, triggerWords: true, defaultParams: true, cover: true, price: true, enabled: true, sort: true, model: { select: { name: true } } } as const

export const listCustomModels = (onlyEnabled: boolean) =>
  db().customModel.findMany({ where: onlyEnabled ? { enabled: true, model: { enabled: true } } : {}, select: SELECT, orderBy: [{ sort: 'asc' }, { id: 'asc' }] })

async function assertModel(tx: Prisma.TransactionClient, modelId: string | undefined, lora: string | null = null) {
  if (!modelId) return
  const model = await tx.aiModel.findUnique({ where: { id: modelId }, select: { backend: true } })
  if (!model) throw notFound('后端模型不存在')
  if (lora && !LORA_BACKENDS.includes(model.backend)) throw badRequest('所选后端模型不能加载 LoRA（只有 SD WebUI 和 ComfyUI 可以），请清空 LoRA 或换一个后端模型')
}

export async function createCustomModel(actor: SessionUser, ip: string, input: Input) {
  return db().$transaction(async (tx) => {
    await assertModel(tx, input.modelId, input.lora)
    const row = await tx.customModel.create({ data: { ...input, defaultParams: input.defaultParams as Prisma.InputJsonValue }, select: SELECT })
    await recordAudit(tx, actor, ip, { action: 'custom-model.create', targetType: 'CustomModel', targetId: String(row.id), after: { name: row.name, price: row.price } })
    return row
  })
}

export async function updateCustomModel(actor: SessionUser, ip: string, id: number, input: Partial<Input>) {
  return db().$transaction(async (tx) => {
    const current = await tx.customModel.findUnique({ where: { id }, select: { modelId: true, lora: true } })
    if (!current) throw notFound('风格模型不存在')
    await assertModel(tx, input.modelId ?? current.modelId, input.lora !== undefined ? input.lora : current.lora)
    const row = await tx.customModel.update({ where: { id }, data: { ...input, defaultParams: input.defaultParams as Prisma.InputJsonValue | undefined }, select: SELECT })
    await recordAudit(tx, actor, ip, { action: 'custom-model.update', targetType: 'CustomModel', targetId: String(id), after: input as Prisma.InputJsonValue })
    return row
  })
}

export async function deleteCustomModel(actor: SessionUser, ip: string, id: number) {
  return db().$transaction(async (tx) => {
    if (!(await tx.customModel.count({ where: { id } }))) throw notFound('风格模型不存在')
    if (await tx.task.count({ where: { customModelId: id, status: 'PENDING' } })) throw conflict('该风格模型还有进行中的任务，请稍后再删除')
    await tx.customModel.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'custom-model.delete', targetType: 'CustomModel', targetId: String(id) })
    return { id }
  })
}

import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import { isAdmin } from '@/lib/auth/permissions'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import { createAdapter, isSupportedBackend } from '@/lib/generation/backends/registry'
import { badRequest, conflict, forbidden, notFound } from '@/lib/http/app-error'
import { maskSecret } from '@/lib/site-config/secret-box'
import { announceQueueChange, wakeLocalRunner } from '@/lib/signals/queue-signal'
import { backendConfig } from './backend-config'
import { assertEndpointAllowed } from './model-endpoint'
import { loadByModel, NO_LOAD, type ModelLoad } from './model-load'
import { openModelSecret, sealModelSecret } from './model-secret'
import type { TModelInput, TModelUpdate } from './schemas'

const MODEL_SELECT = {
  id: true, name: true, type: true, backend: true, endpoint: true, secretEnc: true, checkpoint: true, prices: true, options: true,
  concurrency: true, pool: true, enabled: true, sort: true, healthy: true, healthCheckedAt: true, healthMessage: true, createdAt: true, updatedAt: true,
} as const
type ModelRecord = Prisma.AiModelGetPayload<{ select: typeof MODEL_SELECT }>

/** A model for the console: the secret only ever masked; its queues and the last hour's failures. */
export type AdminModelRow = Omit<ModelRecord, 'secretEnc'> & { secret: string } & ModelLoad

function toRow(m: ModelRecord, load: ModelLoad): AdminModelRow {
  const { secretEnc, ...rest } = m
  return { ...rest, secret: secretEnc ? maskSecret(openModelSecret(secretEnc) ?? '') || '••••••' : '', ...load }
}

export async function listModels(): Promise<AdminModelRow[]> {
  const models = await db().aiModel.findMany({ select: MODEL_SELECT, orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }] })
  const load = await loadByModel(models)
  return models.map((m) => toRow(m, load.get(m.id) ?? NO_LOAD))
}

const SECRET_ADMIN_ONLY = '只有管理员可以设置或修改模型密钥'
/** The endpoint decides where the server connects (and 测试连接 reports back): ADMIN-only like the key. */
const ENDPOINT_ADMIN_ONLY = '只有管理员可以设置或修改模型的接口地址'

const originOf = (endpoint: string) => (URL.canParse(endpoint) ? new URL(endpoint).origin : endpoint)

/**
 * Endpoints and backend keys are ADMIN-only: a MANAGER may not set, change or clear either
 * (sending the stored endpoint unchanged is fine). And a stored key never follows the
 * endpoint to another host on its own (测试连接 would hand it to whoever runs that host):
 * moving the endpoint to another origin needs the key again, or '' to drop it.
 */
function assertChangesAllowed(actor: SessionUser, before: ModelRecord, endpoint: string | undefined, secret: string | undefined): void {
  if (endpoint !== undefined && endpoint !== before.endpoint && !isAdmin(actor.role)) throw forbidden(ENDPOINT_ADMIN_ONLY)
  const changesSecret = secret !== undefined && (secret !== '' || before.secretEnc !== null)
  if (changesSecret && !isAdmin(actor.role)) throw forbidden(SECRET_ADMIN_ONLY)
  const movesOrigin = endpoint !== undefined && originOf(endpoint) !== originOf(before.endpoint)
  if (movesOrigin && before.secretEnc && secret === undefined) throw badRequest('更换接口地址时请重新填写密钥（或清除密钥）')
}

const secretData = (secret: string | undefined) => (secret === undefined ? {} : { secretEnc: secret ? sealModelSecret(secret) : null })
/** What the audit keeps of a model: never the key, only whether there is one and, on an update, whether a new one was typed. */
const audited = (m: ModelRecord, secretReplaced = false) =>
  ({ name: m.name, backend: m.backend, endpoint: m.endpoint, checkpoint: m.checkpoint, prices: m.prices, concurrency: m.concurrency, enabled: m.enabled, hasSecret: Boolean(m.secretEnc), ...(secretReplaced && { secretReplaced }) }) as Prisma.InputJsonValue

export async function createModel(actor: SessionUser, ip: string, input: TModelInput): Promise<AdminModelRow> {
  const { secret, ...data } = input
  if (secret && !isAdmin(actor.role)) throw forbidden(SECRET_ADMIN_ONLY)
  if (data.endpoint && !isAdmin(actor.role)) throw forbidden(ENDPOINT_ADMIN_ONLY)
  if (data.endpoint) await assertEndpointAllowed(data.endpoint)
  const row = await db().$transaction(async (tx) => {
    const model = await tx.aiModel.create({ data: { ...data, prices: data.prices as Prisma.InputJsonValue, options: data.options as Prisma.InputJsonValue, ...secretData(secret) }, select: MODEL_SELECT })
    await recordAudit(tx, actor, ip, { action: 'model.create', targetType: 'AiModel', targetId: model.id, after: audited(model) })
    await announceQueueChange(tx) // a new instance of a pool can take its queued tasks
    return toRow(model, NO_LOAD)
  })
  wakeLocalRunner()
  return row
}

export async function updateModel(actor: SessionUser, ip: string, id: string, input: TModelUpdate): Promise<AdminModelRow> {
  const { secret, ...data } = input
  // Resolved before the transaction (no row lock held over DNS). A MANAGER's endpoint can
  // only be the stored one, which the transaction checks.
  if (data.endpoint && isAdmin(actor.role)) await assertEndpointAllowed(data.endpoint)
  const row = await db().$transaction(async (tx) => {
    const before = await tx.aiModel.findUnique({ where: { id }, select: MODEL_SELECT })
    if (!before) throw notFound('模型不存在')
    assertChangesAllowed(actor, before, data.endpoint, secret)
    const backend = data.backend ?? before.backend
    if (backend !== 'demo' && (data.endpoint ?? before.endpoint) === '') throw badRequest('请填写接口地址')
    const model = await tx.aiModel.update({
      where: { id },
      data: { ...data, prices: data.prices as Prisma.InputJsonValue | undefined, options: data.options as Prisma.InputJsonValue | undefined, ...secretData(secret) },
      select: MODEL_SELECT,
    })
    await recordAudit(tx, actor, ip, { action: 'model.update', targetType: 'AiModel', targetId: id, before: audited(before), after: audited(model, Boolean(secret)) })
    await announceQueueChange(tx) // enabled again, more slots: its queued tasks may run now
    return toRow(model, NO_LOAD)
  })
  wakeLocalRunner()
  return row
}

/** A model that ran tasks keeps them pointing at it: it can only be disabled. */
export async function deleteModel(actor: SessionUser, ip: string, id: string): Promise<{ id: string }> {
  return db().$transaction(async (tx) => {
    const model = await tx.aiModel.findUnique({ where: { id }, select: MODEL_SELECT })
    if (!model) throw notFound('模型不存在')
    const used = await tx.task.count({ where: { modelId: id } })
    if (used) throw conflict(`该模型已有 ${used} 个任务记录，不能删除，可以停用`)
    if (await tx.customModel.count({ where: { modelId: id } })) throw conflict('有风格模型使用该模型，请先删除或改绑')
    await tx.aiModel.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'model.delete', targetType: 'AiModel', targetId: id, before: audited(model) })
    return { id }
  })
}

/** 测试连接: asks the backend for its health or model list and reports what it said. */
export async function testModel(id: string): Promise<{ ok: boolean; message: string; detail?: unknown }> {
  const model = await db().aiModel.findUnique({ where: { id }, select: MODEL_SELECT })
  if (!model) throw notFound('模型不存在')
  if (!isSupportedBackend(model.backend)) return { ok: false, message: `暂不支持该后端类型（${model.backend}）` }
  const adapter = createAdapter(model.backend, backendConfig(model))
  const timeout = new Promise<{ ok: boolean; message: string }>((resolve) => setTimeout(() => resolve({ ok: false, message: '连接超时（15 秒无响应）' }), 15_000).unref())
  return Promise.race([adapter.test(), timeout])
}

/** Enabled models and what they cost, for the creation pages (no endpoints, no secrets). */
export async function listAvailableModels() {
  return db().aiModel.findMany({
    where: { enabled: true },
    select: { id: true, name: true, type: true, backend: true, prices: true },
    orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
  })
}

import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, conflict, notFound } from '@/lib/http/app-error'
import { allowedAddresses, MetadataAddressError } from '@/lib/net/metadata-address'
import { auditedChatModel, CHAT_MODEL_SELECT, toAdminChatModelRow } from './chat-model-views'
import { sealChatSecret } from './chat-secret'
import type { AdminChatModelRow, ChatUsageRow, TChatModelInput, TChatModelUpdate } from './schemas'

export const CHAT_MODEL_NOT_FOUND = '对话模型不存在'
const METADATA_ENDPOINT = '接口地址不能指向链路本地或云服务器元数据地址（如 169.254.169.254、100.100.100.200）'

const originOf = (endpoint: string) => (URL.canParse(endpoint) ? new URL(endpoint).origin : endpoint)
const secretData = (secret: string | undefined) => (secret === undefined ? {} : { secretEnc: secret ? sealChatSecret(secret) : null })

/** Loopback and the LAN are fine (a relay next to the site); metadata addresses never. Every call checks again. */
async function assertEndpointAllowed(endpoint: string): Promise<void> {
  const lookup = allowedAddresses(new URL(endpoint).hostname).catch((error: unknown) => {
    if (error instanceof MetadataAddressError) throw badRequest(METADATA_ENDPOINT)
  })
  await Promise.race([lookup, new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
}

export async function listChatModelsForAdmin(): Promise<AdminChatModelRow[]> {
  const rows = await db().chatModel.findMany({ select: CHAT_MODEL_SELECT, orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }] })
  return rows.map(toAdminChatModelRow)
}

export async function createChatModel(actor: SessionUser, ip: string, input: TChatModelInput): Promise<{ id: string }> {
  const { secret, ...data } = input
  await assertEndpointAllowed(data.endpoint)
  return db().$transaction(async (tx) => {
    const model = await tx.chatModel.create({ data: { ...data, ...secretData(secret) }, select: CHAT_MODEL_SELECT })
    await recordAudit(tx, actor, ip, { action: 'chat-model.create', targetType: 'ChatModel', targetId: model.id, after: auditedChatModel(model) })
    return { id: model.id }
  })
}

export async function updateChatModel(actor: SessionUser, ip: string, id: string, input: TChatModelUpdate): Promise<AdminChatModelRow> {
  const { secret, ...data } = input
  if (data.endpoint) await assertEndpointAllowed(data.endpoint)
  return db().$transaction(async (tx) => {
    const before = await tx.chatModel.findUnique({ where: { id }, select: CHAT_MODEL_SELECT })
    if (!before) throw notFound(CHAT_MODEL_NOT_FOUND)
    // A stored key never follows the endpoint to another host on its own (测试连接 would hand it over).
    const movesOrigin = data.endpoint !== undefined && originOf(data.endpoint) !== originOf(before.endpoint)
    if (movesOrigin && before.secretEnc && secret === undefined) throw badRequest('更换接口地址时请重新填写密钥（或清除密钥）')
    const model = await tx.chatModel.update({ where: { id }, data: { ...data, ...secretData(secret) }, select: CHAT_MODEL_SELECT })
    await recordAudit(tx, actor, ip, {
      action: 'chat-model.update',
      targetType: 'ChatModel',
      targetId: id,
      before: auditedChatModel(before),
      after: auditedChatModel(model, Boolean(secret)),
    })
    return toAdminChatModelRow(model)
  })
}

/** Only a model no conversation uses can go; one in use is switched off instead. */
export async function deleteChatModel(actor: SessionUser, ip: string, id: string): Promise<null> {
  return db().$transaction(async (tx) => {
    const before = await tx.chatModel.findUnique({ where: { id }, select: CHAT_MODEL_SELECT })
    if (!before) throw notFound(CHAT_MODEL_NOT_FOUND)
    const used = await tx.chatConversation.count({ where: { modelId: id } })
    if (used) throw conflict(`已有 ${used} 个对话使用该模型，请停用而不是删除`)
    await tx.chatModel.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'chat-model.delete', targetType: 'ChatModel', targetId: id, before: auditedChatModel(before) })
    return null
  })
}

/** Answers per model and per user (the top 50) over the last `days` days: how many, and the points they cost. */
export async function chatUsage(days: number): Promise<{ days: number; models: ChatUsageRow[]; users: ChatUsageRow[] }> {
  const since = new Date(Date.now() - days * 24 * 60 * 60 * 1000)
  const where = { role: 'ASSISTANT' as const, createdAt: { gte: since } }
  const [byModel, byUser] = await Promise.all([
    db().chatMessage.groupBy({ by: ['modelId'], where, _count: { _all: true }, _sum: { points: true } }),
    db().chatMessage.groupBy({ by: ['userId'], where, _count: { _all: true }, _sum: { points: true }, orderBy: { _count: { userId: 'desc' } }, take: 50 }),
  ])
  const [models, users] = await Promise.all([
    db().chatModel.findMany({ where: { id: { in: byModel.map((r) => r.modelId) } }, select: { id: true, name: true } }),
    db().user.findMany({ where: { id: { in: byUser.map((r) => r.userId) } }, select: { id: true, username: true, name: true } }),
  ])
  const modelName = new Map(models.map((m) => [m.id, m.name]))
  const userName = new Map(users.map((u) => [u.id, u.name === u.username ? u.username : `${u.name}（${u.username}）`]))
  return {
    days,
    models: byModel
      .map((r) => ({ name: modelName.get(r.modelId) ?? r.modelId, messages: r._count._all, points: r._sum.points ?? 0 }))
      .sort((a, b) => b.messages - a.messages),
    users: byUser.map((r) => ({ name: userName.get(r.userId) ?? r.userId, messages: r._count._all, points: r._sum.points ?? 0 })),
  }
}

import 'server-only'
import { db, dbPool } from '@/lib/db'
import { jsonArrayText, jsonObject } from '@/lib/db/json-rows'
import { readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, conflict, notFound } from '@/lib/http/app-error'
import { JsonText } from '@/lib/http/json-list'
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

export type ChatUsage = { days: number; models: ChatUsageRow[]; users: ChatUsageRow[] }

const HOUR = 60 * 60 * 1000

/**
 * Answers per model and per user (the top 50) over the last `days` × 24 hours: how many, and
 * the points they cost; a user is shown by name, with the username when it differs, and a user
 * whose row is gone by its id. One statement, which writes the whole answer as JSON text
 * (GET /api/admin/chat-usage sends it as it is); ties go by id. The period's whole hours are
 * summed from the hourly totals the triggers keep (migration chat_usage_hours); only the
 * answers of its first, partial hour are read, from a partial index of answers by time that
 * holds every column the totals need.
 */
export async function chatUsage(days: number, now = Date.now()): Promise<JsonText<ChatUsage>> {
  const since = new Date(now - days * 24 * HOUR)
  const firstWholeHour = new Date(Math.ceil(since.getTime() / HOUR) * HOUR)
  const [found] = await readRows<{ answer: string }[]>(
    Prisma.sql`
    WITH s AS (
      SELECT "modelId", "userId", sum("messages") AS "messages", sum("points") AS "points" FROM (
        -- 'infinity' bounds the range, so the generic plan expects a few hours, not a third of them all.
        SELECT "modelId", "userId", "messages", "points" FROM "ChatUsageHourTotal" WHERE "hour" >= ${firstWholeHour} AND "hour" < 'infinity'
        UNION ALL
        SELECT "modelId", "userId", 1, "points" FROM "ChatMessage" WHERE "role" = 'ASSISTANT' AND "createdAt" >= ${since} AND "createdAt" < ${firstWholeHour}
      ) a GROUP BY "modelId", "userId" HAVING sum("messages") > 0
    )
    SELECT ${jsonObject<ChatUsage>({
      days: Prisma.sql`${days}::int`,
      models: Prisma.sql`(
        SELECT ${jsonArrayText(usageRowJson(Prisma.sql`coalesce(m."name", g."modelId")`), Prisma.sql`g."messages" DESC, g."modelId"`)}
        FROM (SELECT "modelId", sum("messages") AS "messages", sum("points") AS "points" FROM s GROUP BY "modelId") g
        LEFT JOIN LATERAL (SELECT "name" FROM "ChatModel" WHERE "id" = g."modelId" LIMIT 1) m ON true
      )::json`,
      users: Prisma.sql`(
        SELECT ${jsonArrayText(usageRowJson(Prisma.sql`coalesce(CASE WHEN u."name" = u."username" THEN u."username" ELSE u."name" || '（' || u."username" || '）' END, g."userId")`), Prisma.sql`g."messages" DESC, g."userId"`)}
        FROM (SELECT "userId", sum("messages") AS "messages", sum("points") AS "points" FROM s GROUP BY "userId" ORDER BY "messages" DESC, "userId" LIMIT 50) g
        LEFT JOIN LATERAL (SELECT "name", "username" FROM "User" WHERE "id" = g."userId" LIMIT 1) u ON true
      )::json`,
    })}::text AS "answer"`,
    dbPool('generic'),
  )
  return new JsonText(found!.answer)
}

const usageRowJson = (name: Prisma.Sql) => jsonObject<ChatUsageRow>({ name, messages: Prisma.sql`g."messages"`, points: Prisma.sql`g."points"` })

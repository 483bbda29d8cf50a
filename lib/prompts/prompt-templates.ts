import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { notFound } from '@/lib/http/app-error'
import { updateSchemaOf, z } from '@/lib/zod'

/** Curated prompts users pick on the creation pages (managed on /admin/prompt_mana). */
export const ZPromptInputSchema = z
  .object({
    category: z.string().trim().min(1, '请填写分类').max(20),
    title: z.string().trim().min(1, '请填写标题').max(40),
    prompt: z.string().trim().min(1, '请填写提示词').max(2000),
    negativePrompt: z.string().trim().max(2000).default(''),
    cover: z.string().trim().max(500).nullable().default(null),
    sort: z.number().int().min(-10000).max(10000).default(0),
    enabled: z.boolean().default(true),
  })
  .strict()
export const ZPromptUpdateSchema = updateSchemaOf(ZPromptInputSchema)

const ORDER = [{ category: 'asc' as const }, { sort: 'asc' as const }, { id: 'asc' as const }]

export const listPromptTemplates = (onlyEnabled: boolean) => db().promptTemplate.findMany({ where: onlyEnabled ? { enabled: true } : {}, orderBy: ORDER })

export async function createPromptTemplate(actor: SessionUser, ip: string, input: z.infer<typeof ZPromptInputSchema>) {
  return db().$transaction(async (tx) => {
    const row = await tx.promptTemplate.create({ data: input })
    await recordAudit(tx, actor, ip, { action: 'prompt.create', targetType: 'PromptTemplate', targetId: String(row.id), after: { title: row.title } })
    return row
  })
}

export async function updatePromptTemplate(actor: SessionUser, ip: string, id: number, input: z.infer<typeof ZPromptUpdateSchema>) {
  return db().$transaction(async (tx) => {
    if (!(await tx.promptTemplate.count({ where: { id } }))) throw notFound('提示词模板不存在')
    const row = await tx.promptTemplate.update({ where: { id }, data: input })
    await recordAudit(tx, actor, ip, { action: 'prompt.update', targetType: 'PromptTemplate', targetId: String(id), after: input })
    return row
  })
}

export async function deletePromptTemplate(actor: SessionUser, ip: string, id: number) {
  return db().$transaction(async (tx) => {
    if (!(await tx.promptTemplate.count({ where: { id } }))) throw notFound('提示词模板不存在')
    await tx.promptTemplate.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'prompt.delete', targetType: 'PromptTemplate', targetId: String(id) })
    return { id }
  })
}

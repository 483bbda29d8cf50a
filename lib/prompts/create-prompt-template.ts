import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import type { TPromptInput } from './schemas'

export async function createPromptTemplate(actor: SessionUser, ip: string, input: TPromptInput) {
  return db().$transaction(async (tx) => {
    const row = await tx.promptTemplate.create({ data: input })
    await recordAudit(tx, actor, ip, { action: 'prompt.create', targetType: 'PromptTemplate', targetId: String(row.id), after: { title: row.title } })
    return row
  })
}

import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { notFound } from '@/lib/http/app-error'
import type { TPromptUpdate } from './schemas'

export async function updatePromptTemplate(actor: SessionUser, ip: string, id: number, input: TPromptUpdate) {
  return db().$transaction(async (tx) => {
    if (!(await tx.promptTemplate.count({ where: { id } }))) throw notFound('提示词模板不存在')
    const row = await tx.promptTemplate.update({ where: { id }, data: input })
    await recordAudit(tx, actor, ip, { action: 'prompt.update', targetType: 'PromptTemplate', targetId: String(id), after: input })
    return row
  })
}

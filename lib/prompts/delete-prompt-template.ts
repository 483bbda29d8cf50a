import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { notFound } from '@/lib/http/app-error'

export async function deletePromptTemplate(actor: SessionUser, ip: string, id: number) {
  return db().$transaction(async (tx) => {
    if (!(await tx.promptTemplate.count({ where: { id } }))) throw notFound('提示词模板不存在')
    await tx.promptTemplate.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'prompt.delete', targetType: 'PromptTemplate', targetId: String(id) })
    return { id }
  })
}

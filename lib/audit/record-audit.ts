import 'server-only'
import type { Tx } from '@/lib/db'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'

export type AuditEntry = {
  action: string
  targetType: string
  targetId?: string | null
  before?: Prisma.InputJsonValue
  after?: Prisma.InputJsonValue
  reason?: string
}

/**
 * Records an admin write. Call it inside the transaction of the write itself, so the
 * change and its record exist together or not at all. Never pass secrets unmasked.
 */
export async function recordAudit(tx: Tx, actor: SessionUser, ip: string, entry: AuditEntry): Promise<void> {
  await tx.adminAuditLog.create({
    data: {
      actorId: actor.id,
      actorName: actor.username,
      actorRole: actor.role,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      before: entry.before,
      after: entry.after,
      reason: entry.reason,
      ip,
    },
  })
}

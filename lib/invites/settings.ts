import 'server-only'
import { db, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { COMMISSION_ORDER_TYPES, type CommissionOrderType } from './order-types'
import type { TCommissionUpdate } from './schemas'

export type InviteSettingsView = {
  rates: Record<CommissionOrderType, number>
  payAs: 'BALANCE' | 'POINTS'
  pointsPerYuan: number
  inviteReward: number
}

function view(row: { rates: unknown; payAs: string; pointsPerYuan: number; inviteReward: number } | null): InviteSettingsView {
  const stored = (row?.rates ?? {}) as Record<string, unknown>
  const rates = Object.fromEntries(
    COMMISSION_ORDER_TYPES.map((t) => {
      const v = stored[t]
      return [t, typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 100 ? v : 0]
    }),
  ) as Record<CommissionOrderType, number>
  return { rates, payAs: row?.payAs === 'BALANCE' ? 'BALANCE' : 'POINTS', pointsPerYuan: row?.pointsPerYuan ?? 100, inviteReward: row?.inviteReward ?? 0 }
}

/** The settings as they are now; read inside the caller's transaction when given (fulfilment, binding). */
export async function getInviteSettings(tx?: Tx): Promise<InviteSettingsView> {
  return view(await (tx ?? db()).inviteSettings.findUnique({ where: { id: 1 } }))
}

/** POST /api/admin/commission/update: ADMIN only, audited; the fields not sent keep their values. */
export async function updateInviteSettings(actor: SessionUser, ip: string, input: TCommissionUpdate): Promise<InviteSettingsView> {
  return db().$transaction(async (tx) => {
    // Serialises concurrent updates of the one row (the rates are merged, not replaced).
    await tx.$executeRaw`INSERT INTO "InviteSettings" ("id", "updatedAt") VALUES (1, now()) ON CONFLICT ("id") DO NOTHING`
    await tx.$queryRaw`SELECT 1 FROM "InviteSettings" WHERE "id" = 1 FOR UPDATE`
    const before = await getInviteSettings(tx)
    const after: InviteSettingsView = {
      rates: { ...before.rates, ...(input.rates ?? {}) },
      payAs: input.payAs ?? before.payAs,
      pointsPerYuan: input.pointsPerYuan ?? before.pointsPerYuan,
      inviteReward: input.inviteReward ?? before.inviteReward,
    }
    await tx.inviteSettings.update({ where: { id: 1 }, data: after })
    await recordAudit(tx, actor, ip, { action: 'commission.update', targetType: 'InviteSettings', targetId: '1', before, after })
    return after
  })
}

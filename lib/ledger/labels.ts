import type { LedgerAccount, LedgerKind } from '@/lib/generated/prisma/enums'

/** How ledger entries read in the interface. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  CARD_REDEEM: '卡密兑换',
  ADMIN_ADJUST: '管理员调整',
  TASK_CHARGE: '生成消耗',
  TASK_REFUND: '生成退还',
}

export const LEDGER_ACCOUNT_LABELS: Record<LedgerAccount, string> = { BALANCE: '余额', POINTS: '积分' }

import type { LedgerAccount, LedgerKind } from '@/lib/generated/prisma/enums'

/** How ledger entries read in the interface. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  CARD_REDEEM: '卡密兑换',
  ADMIN_ADJUST: '管理员调整',
  TASK_CHARGE: '生成消耗',
  TASK_REFUND: '生成退还',
  ORDER_CREDIT: '充值到账',
  ORDER_PAYMENT: '余额支付',
  ORDER_REFUND: '订单退款',
  SIGNUP_GIFT: '注册赠送',
  CHECK_IN: '每日签到',
  MEMBERSHIP_DAILY: '会员每日赠送',
  COMMISSION: '邀请佣金',
  COMMISSION_REVERSAL: '佣金退回',
  INVITE_REWARD: '邀请奖励',
  CHAT_CHARGE: '对话消耗',
  CHAT_REFUND: '对话退还',
}

export const LEDGER_ACCOUNT_LABELS: Record<LedgerAccount, string> = { BALANCE: '余额', POINTS: '积分' }

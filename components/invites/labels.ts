import { formatCents } from '@/lib/format'

/** A commission amount as credited: cents to the balance, or points. */
export function commissionText(account: string, amount: number): string {
  return account === 'BALANCE' ? `¥${formatCents(amount)}` : `${amount} 积分`
}

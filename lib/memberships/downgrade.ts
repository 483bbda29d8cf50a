import 'server-only'
import { conflict } from '@/lib/http/app-error'
import type { MembershipKind } from '@/lib/generated/prisma/enums'
import { activeMembership } from './active-membership'

type PlanBenefits = { dailyPoints?: number | null; discountPercent?: number | null; dailyMessages?: number | null }

const DAY_MS = 86_400_000

/**
 * Whether `next` gives less than `current` in a benefit of its kind: an image plan's daily
 * points and discount, a chat plan's daily messages (null is unlimited).
 */
export function losesBenefits(kind: MembershipKind, current: PlanBenefits, next: PlanBenefits): boolean {
  if (kind === 'CHAT') {
    const messages = (n: number | null | undefined) => (n === null || n === undefined ? Infinity : n)
    return messages(next.dailyMessages) < messages(current.dailyMessages)
  }
  return (next.dailyPoints ?? 0) < (current.dailyPoints ?? 0) || (next.discountPercent ?? 0) < (current.discountPercent ?? 0)
}

/**
 * A membership holds one plan's benefits, and the plan bought last decides them for the whole
 * stretch: buying a plan that gives less while a better one runs would take the better
 * benefits off the days already paid for. Such a purchase waits until the current plan ends;
 * renewing the same plan, or a plan at least as good in every benefit, goes ahead.
 */
export async function refuseDowngrade(userId: string, kind: MembershipKind, plan: PlanBenefits & { productId: number; planName: string }): Promise<void> {
  const current = await activeMembership(userId, kind)
  if (!current || current.productId === plan.productId) return
  if (!losesBenefits(kind, current, plan)) return
  const daysLeft = Math.ceil((current.expiresAt.getTime() - Date.now()) / DAY_MS)
  throw conflict(`你的「${current.planName}」权益高于「${plan.planName}」，现在购买会降低剩余 ${daysLeft} 天的权益，请到期后再购买`)
}

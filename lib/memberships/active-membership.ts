import 'server-only'
import type { Tx } from '@/lib/db'
import { db } from '@/lib/db'
import type { MembershipKind } from '@/lib/generated/prisma/enums'

export type ActiveMembership = {
  kind: MembershipKind
  /** The plan that set the benefits (null when its product is gone). */
  productId: number | null
  planName: string
  expiresAt: Date
  dailyPoints: number
  discountPercent: number
  /** CHAT: messages per Beijing day; null = unlimited. */
  dailyMessages: number | null
}

/** The user's membership of this kind while it lasts, or null (none, or expired). */
export async function activeMembership(userId: string, kind: MembershipKind, client: Tx = db(), now = new Date()): Promise<ActiveMembership | null> {
  const row = await client.membership.findUnique({
    where: { userId_kind: { userId, kind } },
    select: { kind: true, productId: true, planName: true, expiresAt: true, dailyPoints: true, discountPercent: true, dailyMessages: true },
  })
  return row && row.expiresAt > now ? row : null
}

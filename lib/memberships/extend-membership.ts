import 'server-only'
import type { Tx } from '@/lib/db'
import type { MembershipKind } from '@/lib/generated/prisma/enums'

export type MembershipGrant = {
  kind: MembershipKind
  productId: number | null
  planName: string
  days: number
  dailyPoints?: number | null
  discountPercent?: number | null
  dailyMessages?: number | null
}

const DAY_MS = 86_400_000

/**
 * Two orders settling at once (two notifications, a notification and the console's 标记已支付)
 * would both read the same end and write the same new one, losing a plan's days; the user's
 * row is locked (the membership row may not exist yet), so the second reads what the first wrote.
 */
async function lockMemberships(tx: Tx, userId: string) {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${userId} FOR UPDATE`
}

/**
 * Adds a plan's days: from now when there is no membership or it ran out, else from its
 * current end. The plan bought last decides the benefits. Runs inside the order's fulfilment.
 */
export async function extendMembership(tx: Tx, userId: string, grant: MembershipGrant, now = new Date()): Promise<Date> {
  await lockMemberships(tx, userId)
  const current = await tx.membership.findUnique({ where: { userId_kind: { userId, kind: grant.kind } }, select: { expiresAt: true } })
  const from = current && current.expiresAt > now ? current.expiresAt : now
  const expiresAt = new Date(from.getTime() + grant.days * DAY_MS)
  const benefits = {
    productId: grant.productId,
    planName: grant.planName,
    expiresAt,
    dailyPoints: grant.dailyPoints ?? 0,
    discountPercent: grant.discountPercent ?? 0,
    dailyMessages: grant.dailyMessages ?? null,
  }
  await tx.membership.upsert({ where: { userId_kind: { userId, kind: grant.kind } }, create: { userId, kind: grant.kind, ...benefits }, update: benefits })
  return expiresAt
}

/** Takes a refunded plan's days back (a refund of the order that gave them). */
export async function shortenMembership(tx: Tx, userId: string, kind: MembershipKind, days: number): Promise<void> {
  await lockMemberships(tx, userId)
  const current = await tx.membership.findUnique({ where: { userId_kind: { userId, kind } }, select: { expiresAt: true } })
  if (!current) return
  await tx.membership.update({ where: { userId_kind: { userId, kind } }, data: { expiresAt: new Date(current.expiresAt.getTime() - days * DAY_MS) } })
}

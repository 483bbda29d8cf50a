import 'server-only'
import type { Tx } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import type { MembershipKind } from '@/lib/generated/prisma/enums'
import { badRequest } from '@/lib/http/app-error'
import { losesBenefits } from './downgrade'

export type MembershipGrant = {
  kind: MembershipKind
  productId: number | null
  planName: string
  days: number
  dailyPoints?: number | null
  discountPercent?: number | null
  dailyMessages?: number | null
  /** The order and the cents paid for it: what its days are worth when a better plan keeps its benefits (below). */
  paid?: { orderId: string; amount: number }
}

/** What a plan gives while it lasts; the plan bought last decides them. */
type Benefits = { productId: number | null; planName: string; dailyPoints: number; discountPercent: number; dailyMessages: number | null }

/**
 * The stretch of the membership one order gave (`from`-`to`, ISO), and the benefits on the
 * membership before it, kept on the order (Order.membershipPeriod) for its refund.
 */
export type MembershipPeriod = {
  from: string
  to: string
  replaced: Benefits | null
  /** The better plan that kept its benefits over this order's (its days were added at that plan's price). */
  keptPlan?: string
  /** That plan is this order's own, renewed after the console lowered its benefits. */
  renewal?: boolean
}

/**
 * What a refund's takeBackMembership changed, for putting it back when the provider refuses the
 * refund: `cutMs` taken off, the stretches from `shiftedFrom` (ms) on moved earlier by it, leaving
 * the membership ending at `end` (ISO).
 */
export type MembershipUndo = {
  kind: MembershipKind
  orderId: string
  cutMs: number
  shiftedFrom: number | null
  end: string
  benefits: Benefits | null
  /** The stretch stacked right after the refunded one, and the benefits it had kept as replaced before it took the refunded order's. */
  handedOn?: { orderId: string; replaced: Benefits | null } | null
}

const DAY_MS = 86_400_000
/** The latest end a membership can have (9999-12-31): stacked 永久 plans stop there instead of making a date no one can store. */
const LAST_END_MS = Date.UTC(9999, 11, 31)

const endAfter = (fromMs: number, days: number) => new Date(Math.min(fromMs + Math.round(days * DAY_MS), LAST_END_MS))
const BENEFITS = { productId: true, planName: true, dailyPoints: true, discountPercent: true, dailyMessages: true } as const

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
export async function extendMembership(tx: Tx, userId: string, grant: MembershipGrant, now = new Date()): Promise<MembershipPeriod> {
  await lockMemberships(tx, userId)
  const where = { userId_kind: { userId, kind: grant.kind } }
  const current = await tx.membership.findUnique({ where, select: { expiresAt: true, ...BENEFITS } })
  if (current && current.expiresAt > now && losesBenefits(grant.kind, current, grant)) return addAtRunningPrice(tx, userId, grant, current)
  const from = current && current.expiresAt > now ? current.expiresAt : now
  const expiresAt = endAfter(from.getTime(), grant.days)
  const benefits: Benefits = {
    productId: grant.productId,
    planName: grant.planName,
    dailyPoints: grant.dailyPoints ?? 0,
    discountPercent: grant.discountPercent ?? 0,
    dailyMessages: grant.dailyMessages ?? null,
  }
  await tx.membership.upsert({ where, create: { userId, kind: grant.kind, expiresAt, ...benefits }, update: { expiresAt, ...benefits } })
  return { from: from.toISOString(), to: expiresAt.toISOString(), replaced: current ? benefitsOf(current) : null }
}

/**
 * A plan that gives less, paid while a better one runs (its order was made before the better
 * plan was bought, as a new one is refused by ./downgrade.ts; or it is the same plan, renewed
 * after the console lowered its benefits): it must not take the better benefits off days
 * already paid for, nor buy the better plan's days at its own price. The better plan
 * keeps its benefits and gets what was paid in its own days, at the price last paid for it
 * (the order's days as they are when that price is not known).
 */
async function addAtRunningPrice(tx: Tx, userId: string, grant: MembershipGrant, running: Benefits & { expiresAt: Date }): Promise<MembershipPeriod> {
  const [last] = await tx.$queryRaw<{ amount: number; days: number | null }[]>`
    SELECT "amount", ("grant"->>'days')::int AS "days" FROM "Order"
    WHERE "userId" = ${userId} AND "productId" = ${running.productId} AND "status" = 'SUCCESS' AND "refundNo" IS NULL
      AND "id" <> ${grant.paid?.orderId ?? ''} AND "membershipPeriod"->>'keptPlan' IS NULL
    ORDER BY "paidAt" DESC LIMIT 1`
  const centsPerDay = last?.days && last.amount > 0 ? last.amount / last.days : null
  const days = centsPerDay && grant.paid ? grant.paid.amount / centsPerDay : grant.days
  const expiresAt = endAfter(running.expiresAt.getTime(), days)
  await tx.membership.update({ where: { userId_kind: { userId, kind: grant.kind } }, data: { expiresAt } })
  return {
    from: running.expiresAt.toISOString(),
    to: expiresAt.toISOString(),
    replaced: benefitsOf(running),
    keptPlan: running.planName,
    ...(running.productId !== null && running.productId === grant.productId ? { renewal: true } : {}),
  }
}

/**
 * A refund takes back what is still ahead of the order's own stretch (`period`), not its whole
 * days: a plan that already ran out gives nothing back, and the plans stacked after it keep
 * their days, moved earlier by the cut (their kept stretches too, so their own refunds later
 * cut the right part). When no plan came after it, the benefits it replaced come back. An order
 * fulfilled before stretches were kept counts as the membership's last stretch.
 */
export async function takeBackMembership(
  tx: Tx,
  userId: string,
  kind: MembershipKind,
  order: { id: string; days: number; period: MembershipPeriod | null; planName?: string },
  now = new Date(),
): Promise<MembershipUndo | null> {
  await lockMemberships(tx, userId)
  const where = { userId_kind: { userId, kind } }
  const current = await tx.membership.findUnique({ where, select: { expiresAt: true, ...BENEFITS } })
  if (!current) return null
  const { period } = order
  if (period && order.planName && (await keptAfter(tx, userId, kind, order.id, order.planName, period)))
    throw badRequest('这笔会员订单之后还有按它的价格顺延的订单，请先退款那笔订单')
  const to = period ? new Date(period.to).getTime() : current.expiresAt.getTime()
  const from = period ? new Date(period.from).getTime() : to - order.days * DAY_MS
  const cutMs = Math.max(0, to - Math.max(now.getTime(), from))
  const restore = period?.replaced && current.expiresAt.getTime() === to ? period.replaced : null
  const end = new Date(current.expiresAt.getTime() - cutMs)
  await tx.membership.update({ where, data: { expiresAt: end, ...restore } })
  // An order without a kept stretch counts as the last one: nothing after it to move.
  const shiftedFrom = cutMs && period ? to : null
  let handedOn: MembershipUndo['handedOn'] = null
  if (shiftedFrom !== null) {
    // The plan stacked right after this one replaced its benefits; with this one gone, it replaced what this one did.
    handedOn = await handOnReplaced(tx, userId, kind, shiftedFrom, period!.replaced)
    await shiftStretches(tx, userId, kind, order.id, shiftedFrom, -cutMs)
  }
  return { kind, orderId: order.id, cutMs, shiftedFrom, end: end.toISOString(), benefits: restore ? benefitsOf(current) : null, handedOn }
}

/**
 * Whether a later stretch kept this order's plan's benefits in place of its own
 * (addAtRunningPrice) and is not refunded: taking this order back first could leave its
 * benefits on those days, so that one is refunded first. A refund under way still counts, as
 * the provider may refuse it.
 */
async function keptAfter(tx: Tx, userId: string, kind: MembershipKind, orderId: string, planName: string, period: MembershipPeriod): Promise<boolean> {
  const [found] = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM "Order"
    WHERE "userId" = ${userId} AND "type" = ${kind === 'CHAT' ? 'CHAT_MEMBERSHIP' : 'MEMBERSHIP'}::"OrderType" AND "id" <> ${orderId}
      AND "status" = 'SUCCESS' AND "refundedAt" IS NULL AND "membershipPeriod"->>'keptPlan' = ${planName}
      AND ("membershipPeriod"->>'from')::timestamptz >= ${period.to}::timestamptz
    LIMIT 1`
  return found !== undefined
}

/**
 * Puts back what takeBackMembership took (the provider refused the refund): the days, the later
 * stretches' places, and the benefits, unless a plan settled meanwhile and set its own.
 */
export async function undoTakeBack(tx: Tx, userId: string, undo: MembershipUndo): Promise<void> {
  await lockMemberships(tx, userId)
  const where = { userId_kind: { userId, kind: undo.kind } }
  const current = await tx.membership.findUnique({ where, select: { expiresAt: true } })
  if (!current) return
  const untouched = current.expiresAt.toISOString() === undo.end
  await tx.membership.update({
    where,
    data: { expiresAt: new Date(current.expiresAt.getTime() + undo.cutMs), ...(untouched ? undo.benefits : null) },
  })
  if (undo.shiftedFrom !== null) await shiftStretches(tx, userId, undo.kind, undo.orderId, undo.shiftedFrom - undo.cutMs, undo.cutMs)
  if (undo.handedOn) {
    const next = await tx.order.findUnique({ where: { id: undo.handedOn.orderId }, select: { membershipPeriod: true } })
    const period = next?.membershipPeriod as MembershipPeriod | null | undefined
    if (period) await tx.order.update({ where: { id: undo.handedOn.orderId }, data: { membershipPeriod: { ...period, replaced: undo.handedOn.replaced } } })
  }
}

/** The kept stretch that starts at `at` (the plan stacked on the refunded one) now says it replaced `replaced`; what it said before. */
async function handOnReplaced(tx: Tx, userId: string, kind: MembershipKind, at: number, replaced: Benefits | null): Promise<MembershipUndo['handedOn']> {
  for (const { id, period } of await keptStretches(tx, userId, kind)) {
    if (new Date(period.from).getTime() !== at) continue
    await tx.order.update({ where: { id }, data: { membershipPeriod: { ...period, replaced } } })
    return { orderId: id, replaced: period.replaced }
  }
  return null
}

async function keptStretches(tx: Tx, userId: string, kind: MembershipKind): Promise<{ id: string; period: MembershipPeriod }[]> {
  const orders = await tx.order.findMany({
    where: { userId, type: kind === 'CHAT' ? 'CHAT_MEMBERSHIP' : 'MEMBERSHIP', membershipPeriod: { not: Prisma.DbNull } },
    select: { id: true, membershipPeriod: true },
  })
  return orders.map((o) => ({ id: o.id, period: o.membershipPeriod as MembershipPeriod }))
}

/** Moves the kept stretches of the user's other orders of this kind that start at or after `from` by `byMs`. */
async function shiftStretches(tx: Tx, userId: string, kind: MembershipKind, exceptOrderId: string, from: number, byMs: number) {
  for (const { id, period } of await keptStretches(tx, userId, kind)) {
    if (id === exceptOrderId || new Date(period.from).getTime() < from) continue
    const moved = (iso: string) => new Date(new Date(iso).getTime() + byMs).toISOString()
    await tx.order.update({ where: { id }, data: { membershipPeriod: { ...period, from: moved(period.from), to: moved(period.to) } } })
  }
}

function benefitsOf(row: Benefits): Benefits {
  return {
    productId: row.productId,
    planName: row.planName,
    dailyPoints: row.dailyPoints,
    discountPercent: row.discountPercent,
    dailyMessages: row.dailyMessages,
  }
}

import 'server-only'
import { db } from '@/lib/db'
import { readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { conflict, notFound } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from '@/lib/ledger/post-movement'
import { grantDailyAllowance } from '@/lib/memberships/daily-allowance'
import type { ActiveMembership } from '@/lib/memberships/active-membership'
import { activeMembershipJson, activeMembershipRow, membershipDailyReference } from '@/lib/memberships/active-membership-sql'
import { paymentEnabled } from '@/lib/site-config/payment-readiness'
import { getAllConfigValues } from '@/lib/site-config/store'
import { beijingDay } from '@/lib/beijing-time'

type WalletRow = {
  balance: number
  points: number
  membership: Listed<Pick<ActiveMembership, 'planName' | 'expiresAt' | 'dailyPoints' | 'discountPercent'>> | null
  chatMembership: Listed<Pick<ActiveMembership, 'planName' | 'expiresAt' | 'dailyMessages'>> | null
  grantedToday: boolean
  checkedInToday: boolean
}

/**
 * The user's columns, active memberships and whether today's daily points and check-in are
 * booked, in one plain statement (docs/DECISIONS.md, "Speed: prepared statements, reads on
 * pg"): /account reads it on every visit.
 */
const readWallet = async (userId: string, now: Date) =>
  (
    await readRows<WalletRow[]>(
      Prisma.sql`
      SELECT u."balance", u."points",
        ${activeMembershipJson('i', ['planName', 'expiresAt', 'dailyPoints', 'discountPercent'])} AS "membership",
        ${activeMembershipJson('c', ['planName', 'expiresAt', 'dailyMessages'])} AS "chatMembership",
        EXISTS (SELECT 1 FROM "LedgerEntry" WHERE "reference" = ${membershipDailyReference(userId, now)}) AS "grantedToday",
        EXISTS (SELECT 1 FROM "LedgerEntry" WHERE "reference" = ${checkInReference(userId, now)}) AS "checkedInToday"
      FROM "User" u
      LEFT JOIN LATERAL (${activeMembershipRow(Prisma.sql`u."id"`, 'IMAGE', now)}) i ON true
      LEFT JOIN LATERAL (${activeMembershipRow(Prisma.sql`u."id"`, 'CHAT', now)}) c ON true
      WHERE u."id" = ${userId}`,
    )
  )[0]

/** GET /api/account/wallet: what /account shows above the recharge area. */
export async function getWallet(userId: string) {
  const now = new Date()
  const [read, values] = await Promise.all([readWallet(userId, now), getAllConfigValues()])
  let user = read
  // A member's first view of the day books the day's points (docs/PRODUCT.md §14), then reads
  // again so they are shown; every other view is the one statement.
  if (user?.membership && user.membership.dailyPoints > 0 && !user.grantedToday) {
    await grantDailyAllowance(userId, now)
    user = await readWallet(userId, now)
  }
  if (!user) throw notFound('用户不存在')
  const checkInPoints = Number(values.get('CHECK_IN_POINTS') ?? 0)
  return {
    balance: user.balance,
    points: user.points,
    membership: user.membership,
    chatMembership: user.chatMembership,
    checkIn: checkInPoints > 0 ? { points: checkInPoints, checkedInToday: user.checkedInToday } : null,
    channels: { wechat: paymentEnabled('wechat', values), alipay: paymentEnabled('alipay', values) },
    recharge: { minCents: Number(values.get('RECHARGE_MIN_CENTS')), maxCents: Number(values.get('RECHARGE_MAX_CENTS')) },
  }
}

const checkInReference = (userId: string, now = new Date()) => `check-in:${userId}:${beijingDay(now)}`

/** 签到: CHECK_IN_POINTS once per Beijing day (the ledger reference names the day). */
export async function checkIn(userId: string): Promise<{ points: number; total: number }> {
  const points = Number((await getAllConfigValues()).get('CHECK_IN_POINTS') ?? 0)
  if (points <= 0) throw notFound('本站未开启签到')
  try {
    const posted = await db().$transaction((tx) =>
      postMovement(tx, { userId, account: 'POINTS', kind: 'CHECK_IN', amount: points, reference: checkInReference(userId), note: '每日签到' }),
    )
    return { points, total: posted.balanceAfter }
  } catch (error) {
    if (error instanceof AlreadyBookedError) throw conflict('今天已经签到过了，明天再来吧')
    throw error
  }
}

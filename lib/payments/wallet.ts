import 'server-only'
import { db } from '@/lib/db'
import { conflict, notFound } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from '@/lib/ledger/post-movement'
import { grantDailyAllowance } from '@/lib/memberships/daily-allowance'
import { activeMembership } from '@/lib/memberships/active-membership'
import { paymentEnabled } from '@/lib/site-config/payment-readiness'
import { getAllConfigValues } from '@/lib/site-config/store'
import { beijingDay } from '@/lib/beijing-time'

/** GET /api/account/wallet: what /account shows above the recharge area. */
export async function getWallet(userId: string) {
  await grantDailyAllowance(userId)
  const [user, image, chat, values] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { balance: true, points: true } }),
    activeMembership(userId, 'IMAGE'),
    activeMembership(userId, 'CHAT'),
    getAllConfigValues(),
  ])
  if (!user) throw notFound('用户不存在')
  const checkInPoints = Number(values.get('CHECK_IN_POINTS') ?? 0)
  const checkedInToday = checkInPoints > 0 && (await db().ledgerEntry.count({ where: { reference: checkInReference(userId) } })) > 0
  return {
    balance: user.balance,
    points: user.points,
    membership: image ? { planName: image.planName, expiresAt: image.expiresAt, dailyPoints: image.dailyPoints, discountPercent: image.discountPercent } : null,
    chatMembership: chat ? { planName: chat.planName, expiresAt: chat.expiresAt, dailyMessages: chat.dailyMessages } : null,
    checkIn: checkInPoints > 0 ? { points: checkInPoints, checkedInToday } : null,
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

import 'server-only'
import { db } from '@/lib/db'
import { AppError } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from '@/lib/ledger/post-movement'
import { activeMembership } from './active-membership'
import { membershipDailyReference } from './active-membership-sql'

/**
 * An image membership's daily points (docs/PRODUCT.md §14): credited once per Beijing day, the
 * first time the member opens the wallet or submits a task that day. The ledger reference
 * names the day, so concurrent requests credit once.
 */
export async function grantDailyAllowance(userId: string, now = new Date()): Promise<void> {
  const membership = await activeMembership(userId, 'IMAGE', undefined, now)
  if (!membership || membership.dailyPoints <= 0) return
  try {
    await db().$transaction((tx) =>
      postMovement(tx, {
        userId,
        account: 'POINTS',
        kind: 'MEMBERSHIP_DAILY',
        amount: membership.dailyPoints,
        reference: membershipDailyReference(userId, now),
        note: `${membership.planName}每日赠送`,
      }),
    )
  } catch (error) {
    // Booked already today; or refused (points at the most a balance can hold): the day's gift is skipped, the submit or wallet read goes on.
    if (!(error instanceof AlreadyBookedError || error instanceof AppError)) throw error
  }
}

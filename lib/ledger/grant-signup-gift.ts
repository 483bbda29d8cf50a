import 'server-only'
import type { Tx } from '@/lib/db'
import { getConfigValue } from '@/lib/site-config/store'
import { postMovement } from './post-movement'

/** The operator's registration gift (SIGNUP_GIFT_POINTS; 0 = none), booked once per account inside its creation. */
export async function grantSignupGift(tx: Tx, userId: string): Promise<void> {
  const points = await getConfigValue<number>('SIGNUP_GIFT_POINTS')
  if (points > 0)
    await postMovement(tx, { userId, account: 'POINTS', kind: 'SIGNUP_GIFT', amount: points, reference: `signup-gift:${userId}`, note: '注册赠送' })
}

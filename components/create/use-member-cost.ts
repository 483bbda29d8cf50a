'use client'

import { useProfile } from '@/lib/api-client/resources/profile'
import { useWallet } from '@/lib/api-client/resources/wallet'
import { memberPrice } from '@/lib/memberships/member-price'

/** What a submission costs this user: an image member pays the discounted price the server charges. */
export function useMemberCost(fullCost: number): { cost: number; discounted: boolean } {
  const { profile } = useProfile()
  const { data: wallet } = useWallet({ enabled: Boolean(profile) })
  const cost = memberPrice(fullCost, wallet?.membership?.discountPercent ?? 0)
  return { cost, discounted: cost !== fullCost }
}

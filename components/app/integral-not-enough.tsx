'use client'

import { Suspense, useEffect, useState } from 'react'
import { INTEGRAL_NOT_ENOUGH, on, type IntegralNotEnoughDetail } from '@/lib/api-client/events'
import { RechargeDialog } from '@/components/payments/recharge-dialog'
import { ReturnedOrder } from '@/components/payments/returned-order'

/**
 * docs/PRODUCT.md §8: 积分不足 raises an event instead of a toast; it opens the recharge
 * dialog on the points packs, over the page the user is on, so they carry on there once paid
 * (a cashier elsewhere sends them back to that page with ?order=<id>, shown here too).
 */
export function IntegralNotEnoughDialog() {
  const [detail, setDetail] = useState<IntegralNotEnoughDetail | null>(null)
  useEffect(() => on<IntegralNotEnoughDetail>(INTEGRAL_NOT_ENOUGH, setDetail), [])
  return (
    <>
      <RechargeDialog open={Boolean(detail)} title="积分不足" description={detail?.errMessage} initialTab="POINTS" onClose={() => setDetail(null)} />
      <Suspense fallback={null}>
        <ReturnedOrder />
      </Suspense>
    </>
  )
}

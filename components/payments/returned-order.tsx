'use client'

import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { useProfile } from '@/lib/api-client/resources/profile'
import { OrderProgressDialog } from './recharge-dialog'
import { RETURN_PARAMS } from './return-path'

/**
 * Back from a provider's cashier (Alipay page/wap pay, WeChat H5) on whatever page the user
 * paid from: `?order=<id>` opens that order's progress, which settles by itself; closing it
 * tidies the address.
 */
export function ReturnedOrder() {
  const params = useSearchParams()
  const router = useRouter()
  const pathname = usePathname()
  const { profile } = useProfile()
  const orderId = profile ? params.get('order') : null

  function close() {
    const rest = new URLSearchParams(params)
    RETURN_PARAMS.forEach((name) => rest.delete(name))
    const query = rest.toString()
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false })
  }

  return <OrderProgressDialog orderId={orderId} onClose={close} />
}

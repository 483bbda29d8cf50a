'use client'

import { usePathname, useRouter } from 'next/navigation'
import { useEffect } from 'react'
import { useProfile, useSiteInfo } from '@/lib/api-client/hooks'
import { BIND_MOBILE_PATH, decideStartAction } from '@/lib/app-start/rules'

/** Session-storage key 'f' (SPEC section 4): the page to return to after WeChat authorization. */
export const RETURN_PATH_KEY = 'f'

/**
 * SPEC section 4 "After user info loads": inside WeChat without a bound openid, go
 * through WeChat authorization; else, when mobile binding is required and missing,
 * go to /bind_mobile.
 */
export function AppStart() {
  const { data: config } = useSiteInfo()
  const { profile } = useProfile()
  const pathname = usePathname()
  const router = useRouter()

  useEffect(() => {
    if (!config || !profile) return
    const state = crypto.randomUUID().replace(/-/g, '')
    const action = decideStartAction({ user: profile, config, userAgent: navigator.userAgent, pathname, origin: window.location.origin, state })
    if (action.kind === 'wechat-authorize') {
      sessionStorage.setItem(RETURN_PATH_KEY, pathname + window.location.search)
      sessionStorage.setItem('wx_state', state)
      window.location.replace(action.url)
    } else if (action.kind === 'bind-mobile') {
      router.replace(BIND_MOBILE_PATH)
    }
  }, [config, profile, pathname, router])

  return null
}

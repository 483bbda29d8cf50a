'use client'

import { usePathname, useRouter } from 'next/navigation'
import { useEffect, useRef, useState } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { useStartWechatAuthorization } from '@/lib/api-client/resources/wechat'
import { RETURN_PATH_KEY, WECHAT_DECLINED_KEY, decideStartAction } from '@/lib/app-start/rules'

/**
 * docs/PRODUCT.md §4.5 "After the user info loads": inside WeChat without a bound openid, go
 * through WeChat authorization (the server starts it for this user); else, when mobile
 * binding is required and missing, go to /bind_mobile.
 */
export function AppStart() {
  const { data: config } = useSiteInfo()
  const { profile } = useProfile()
  const pathname = usePathname()
  const router = useRouter()
  const { mutateAsync: startAuthorization } = useStartWechatAuthorization()
  const authorizing = useRef(false)
  // Bumped when authorization turns out impossible, so the next rule gets its turn at once.
  const [declined, setDeclined] = useState(0)

  useEffect(() => {
    if (!config || !profile) return
    const action = decideStartAction({
      user: profile,
      config,
      userAgent: navigator.userAgent,
      pathname,
      search: window.location.search,
      wechatDeclined: sessionStorage.getItem(WECHAT_DECLINED_KEY) === '1',
    })
    if (action.kind === 'wechat-authorize') {
      if (authorizing.current) return
      authorizing.current = true
      sessionStorage.setItem(RETURN_PATH_KEY, action.body.returnPath)
      startAuthorization({ endpoint: action.endpoint, body: action.body })
        .then(({ url }) => window.location.replace(url))
        .catch(() => {
          // Not possible now (not configured, already bound elsewhere): carry on without it.
          sessionStorage.setItem(WECHAT_DECLINED_KEY, '1')
          authorizing.current = false
          setDeclined((n) => n + 1)
        })
    } else if (action.kind === 'bind-mobile') {
      router.replace(action.href)
    }
  }, [config, profile, pathname, router, declined, startAuthorization])

  return null
}

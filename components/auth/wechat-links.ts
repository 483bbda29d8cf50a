import { useSyncExternalStore } from 'react'
import { isWechatBrowser } from '@/lib/app-start/rules'

// The authorize link is the wechat resource's (its URLs live there).
export { wechatAuthorizeLink } from '@/lib/api-client/resources/wechat'

const noSubscription = () => () => {}

/** Whether this page runs in WeChat's browser; undefined until hydrated (the server cannot know). */
export function useIsWechatBrowser(): boolean | undefined {
  return useSyncExternalStore(
    noSubscription,
    () => isWechatBrowser(navigator.userAgent),
    () => undefined,
  )
}

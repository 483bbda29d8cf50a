import type { OAuthPurpose } from '@/lib/auth/wechat/oauth-state'
import { isWechatBrowser } from '@/lib/app-start/rules'
import { useSyncExternalStore } from 'react'

/** The server link that starts a WeChat authorization (it 302s to WeChat with a fresh state). */
export function wechatAuthorizeLink(purpose: Exclude<OAuthPurpose, 'bind'>, options: { returnPath?: string; ticket?: string; from?: string } = {}): string {
  const query = new URLSearchParams({ purpose })
  if (options.returnPath) query.set('return', options.returnPath)
  if (options.ticket) query.set('ticket', options.ticket)
  if (options.from) query.set('from', options.from)
  return `/api/auth/wechat/authorize?${query}`
}

const noSubscription = () => () => {}

/** Whether this page runs in WeChat's browser; undefined until hydrated (the server cannot know). */
export function useIsWechatBrowser(): boolean | undefined {
  return useSyncExternalStore(noSubscription, () => isWechatBrowser(navigator.userAgent), () => undefined)
}

'use client'

import { useSearchParams } from 'next/navigation'
import { afterSignInPath } from '@/lib/safe-redirect'

/** Where to go after signing in (a safe `redirect`, never a sign-in page) and a suffix to pass it on. */
export function useRedirectParam() {
  const raw = useSearchParams().get('redirect')
  const target = afterSignInPath(raw, typeof window === 'undefined' ? undefined : window.location.origin)
  return { target, carry: target !== '/' ? `redirect=${encodeURIComponent(target)}` : '' }
}

'use client'

import { useSearchParams } from 'next/navigation'
import { safeRedirectPath } from '@/lib/safe-redirect'

/** The validated `redirect` parameter (same-origin paths only) and a suffix to pass it on. */
export function useRedirectParam() {
  const raw = useSearchParams().get('redirect')
  const target = safeRedirectPath(raw, typeof window === 'undefined' ? undefined : window.location.origin)
  return { target, carry: raw ? `redirect=${encodeURIComponent(target)}` : '' }
}

'use client'

import { usePathname, useRouter } from 'next/navigation'
import { useEffect, type ReactNode } from 'react'
import { type Json } from '@/lib/api-client/hooks'
import { useProfile } from '@/lib/api-client/resources/profile'
import { loginUrlFor } from '@/lib/safe-redirect'
import type { Profile } from '@/lib/users/user-views'
import { LoadFailed } from '@/components/ui/load-failed'
import { Loading } from '@/components/ui/spinner'

/** Renders its children with the signed-in user; sends everyone else to the login page. */
export function RequireUser({ children }: { children: (profile: Json<Profile>) => ReactNode }) {
  const { profile, isSignedIn, loadFailed, refetch } = useProfile()
  const router = useRouter()
  const pathname = usePathname()

  useEffect(() => {
    if (isSignedIn === false) router.replace(loginUrlFor(pathname + window.location.search))
  }, [isSignedIn, pathname, router])

  if (loadFailed) return <LoadFailed onRetry={() => void refetch()} />
  if (!profile) return <Loading />
  return <>{children(profile)}</>
}

'use client'

import { usePathname, useRouter } from 'next/navigation'
import { useEffect, type ReactNode } from 'react'
import { type Json } from '@/lib/api-client/hooks'
import { useProfile } from '@/lib/api-client/resources/profile'
import { loginUrlFor } from '@/lib/safe-redirect'
import type { Profile } from '@/lib/users/user-views'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'

/** Renders its children with the signed-in user; sends everyone else to the login page. */
export function RequireUser({ children }: { children: (profile: Json<Profile>) => ReactNode }) {
  const { profile, isSignedIn, isError, isFetching, refetch } = useProfile()
  const router = useRouter()
  const pathname = usePathname()

  useEffect(() => {
    if (isSignedIn === false) router.replace(loginUrlFor(pathname + window.location.search))
  }, [isSignedIn, pathname, router])

  // Nothing else on the page asks again: a failed first load offers to.
  if (!profile && isSignedIn && isError && !isFetching)
    return (
      <EmptyState>
        <p>加载失败，请稍后重试</p>
        <Button size="sm" variant="ghost" className="mt-3" onClick={() => void refetch()}>
          重试
        </Button>
      </EmptyState>
    )
  if (!profile) return <Loading />
  return <>{children(profile)}</>
}

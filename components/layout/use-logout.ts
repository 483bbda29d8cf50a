'use client'

import { useCallback } from 'react'
import { useSignOut } from '@/lib/api-client/resources/auth'

/**
 * Signs out everywhere (the server revokes every token), forgets the token here and
 * reloads into /login, which also drops everything cached for the old user.
 */
export function useLogout() {
  const { mutateAsync: signOut } = useSignOut()
  return useCallback(async () => {
    await signOut()
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose: it drops every query cached for the old user
    window.location.assign('/login')
  }, [signOut])
}

'use client'

import { useRouter } from 'next/navigation'
import { useCallback } from 'react'
import { useStoreSession } from '@/lib/api-client/resources/auth'
import { forgetInviteCode } from './use-invite-code'

/** Keeps a fresh token, reloads the user and goes on to `target`. */
export function useSignIn() {
  const storeSession = useStoreSession()
  const router = useRouter()
  return useCallback(
    async (token: string, target: string) => {
      await storeSession(token)
      forgetInviteCode()
      router.replace(target)
    },
    [storeSession, router],
  )
}

'use client'

import { useRouter } from 'next/navigation'
import { useCallback } from 'react'
import { useStoreSession } from '@/lib/api-client/resources/auth'

/** Keeps a fresh token, reloads the user and goes on to `target`. */
export function useSignIn() {
  const storeSession = useStoreSession()
  const router = useRouter()
  return useCallback(
    async (token: string, target: string) => {
      await storeSession(token)
      router.replace(target)
    },
    [storeSession, router],
  )
}

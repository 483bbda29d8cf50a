'use client'

import { useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { useCallback } from 'react'
import { queryKeys } from '@/lib/api-client/query-client'
import { storeToken } from '@/lib/api-client/token-store'

/** Keeps a fresh token, reloads the user and goes on to `target`. */
export function useSignIn() {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useCallback(
    async (token: string, target: string) => {
      storeToken(token)
      await queryClient.invalidateQueries({ queryKey: queryKeys.profile })
      router.replace(target)
    },
    [queryClient, router],
  )
}

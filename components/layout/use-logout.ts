'use client'

import { useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { useCallback } from 'react'
import { api } from '@/lib/api-client/request'
import { clearToken } from '@/lib/api-client/token-store'
import { queryKeys } from '@/lib/api-client/query-client'

/** Signs out everywhere (the server revokes every token), then forgets the token here. */
export function useLogout() {
  const queryClient = useQueryClient()
  const router = useRouter()
  return useCallback(async () => {
    await api.post('/api/auth/logout').catch(() => undefined)
    clearToken()
    queryClient.removeQueries({ queryKey: queryKeys.profile })
    router.push('/login')
  }, [queryClient, router])
}

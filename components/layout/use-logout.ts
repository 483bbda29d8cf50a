'use client'

import { useCallback } from 'react'
import { api } from '@/lib/api-client/request'
import { clearToken } from '@/lib/api-client/token-store'

/**
 * Signs out everywhere (the server revokes every token), forgets the token here and
 * reloads into /login, which also drops everything cached for the old user.
 */
export function useLogout() {
  return useCallback(async () => {
    await api.post('/api/auth/logout').catch(() => undefined)
    clearToken()
    window.location.assign('/login')
  }, [])
}

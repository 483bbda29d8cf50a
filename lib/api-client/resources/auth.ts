'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { z } from 'zod'
import { WECHAT_DECLINED_KEY } from '@/lib/app-start/rules'
import type { ZCredentialsSchema, ZLoginSchema } from '@/lib/users/schemas'
import { api } from '../request'
import { clearToken, storeToken } from '../token-store'
import { profileKeys } from './profile'

export const authUrls = {
  login: '/api/auth/login',
  register: '/api/auth/register',
  logout: '/api/auth/logout',
} as const

/**
 * Stores a fresh token and reloads the user it belongs to. A new sign-in may bind WeChat
 * where the old session could not (binding needs a recent sign-in), so the start-up rule
 * gets to try again.
 */
export function useStoreSession() {
  const queryClient = useQueryClient()
  return useCallback(
    async (token: string) => {
      storeToken(token)
      sessionStorage.removeItem(WECHAT_DECLINED_KEY)
      await queryClient.invalidateQueries({ queryKey: profileKeys.all })
    },
    [queryClient],
  )
}

/** Signs in with a username and password, or creates the account first (`register`). */
export function usePasswordSignIn() {
  return useMutation({
    mutationFn: ({ mode, body }: { mode: 'login'; body: z.input<typeof ZLoginSchema> } | { mode: 'register'; body: z.input<typeof ZCredentialsSchema> }) =>
      api.post<{ token: string }>(mode === 'login' ? authUrls.login : authUrls.register, body),
  })
}

/** Signs out everywhere (the server revokes every token) and forgets the token here, even when the server cannot be reached. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => api.post(authUrls.logout).catch(() => undefined),
    onSettled: () => clearToken(),
  })
}

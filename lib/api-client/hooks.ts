'use client'

import { useQuery } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'
import type { PublicConfig } from '@/lib/site-config/registry'
import type { Profile } from '@/lib/users/user-views'
import { api } from './request'
import { queryKeys } from './query-client'
import { getStoredToken, subscribeToken } from './token-store'

/** Dates arrive as strings over JSON. */
export type Json<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T

export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getStoredToken, () => null)
}

export function useSiteInfo(initial?: PublicConfig) {
  return useQuery({
    queryKey: queryKeys.siteInfo,
    queryFn: async () => (await api.get<{ config: PublicConfig }>('/api/site-config/site-info')).config,
    initialData: initial,
    staleTime: 30_000,
    gcTime: Infinity,
  })
}

/** The signed-in user's info, loaded when a token exists (SPEC section 4 "App start"). */
export function useProfile() {
  const token = useToken()
  const query = useQuery({
    queryKey: queryKeys.profile,
    queryFn: () => api.get<Json<Profile>>('/api/users/profile'),
    enabled: Boolean(token),
    gcTime: Infinity,
    placeholderData: undefined,
  })
  return { ...query, isSignedIn: Boolean(token), profile: token ? query.data : undefined }
}

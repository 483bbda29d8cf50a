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

/** The stored token; undefined until the page has hydrated (the server cannot know it). */
export function useToken(): string | null | undefined {
  return useSyncExternalStore(subscribeToken, getStoredToken, () => undefined)
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

/** The signed-in user's info, loaded when a token exists (docs/PRODUCT.md §4.4 "App start"). */
export function useProfile() {
  const token = useToken()
  const query = useQuery({
    queryKey: queryKeys.profile,
    queryFn: () => api.get<Json<Profile>>('/api/users/profile'),
    enabled: Boolean(token),
    gcTime: Infinity,
    placeholderData: undefined,
  })
  // isSignedIn is undefined while that is not known yet: never redirect on it then.
  const isSignedIn = token === undefined ? undefined : token !== null
  return { ...query, isSignedIn, profile: token ? query.data : undefined }
}

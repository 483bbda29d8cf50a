'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { ZPasswordChangeSchema, ZProfileUpdateSchema } from '@/lib/users/schemas'
import type { Profile } from '@/lib/users/user-views'
import { useToken, type Json } from '../hooks'
import { api } from '../request'
import { storeToken } from '../token-store'

export type ProfileJson = Json<Profile>

export const profileUrls = {
  profile: '/api/users/profile',
  avatar: '/api/users/avatar',
  password: '/api/users/password',
  bindMobile: '/api/users/bind_mobile',
} as const

export const profileKeys = { all: ['profile'] as const }

/** The signed-in user's info, loaded when a token exists (docs/PRODUCT.md §4.4 "App start"). */
export function useProfile() {
  const token = useToken()
  const query = useQuery({
    queryKey: profileKeys.all,
    queryFn: () => api.get<ProfileJson>(profileUrls.profile),
    enabled: Boolean(token),
    gcTime: Infinity,
    placeholderData: undefined,
  })
  // isSignedIn is undefined while that is not known yet: never redirect on it then.
  const isSignedIn = token === undefined ? undefined : token !== null
  // Its first read failed and nothing asks again by itself (no retries, no refetch on focus).
  const loadFailed = Boolean(token) && !query.data && query.isError && !query.isFetching
  return { ...query, isSignedIn, loadFailed, profile: token ? query.data : undefined }
}

/** A write whose answer is the updated profile: it replaces the cached one. */
function useProfileWrite<Input>(send: (input: Input) => Promise<ProfileJson>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: send, onSuccess: (updated) => queryClient.setQueryData(profileKeys.all, updated) })
}

export const useUpdateProfile = () => useProfileWrite((body: z.input<typeof ZProfileUpdateSchema>) => api.patch<ProfileJson>(profileUrls.profile, body))

export const useUploadAvatar = () => useProfileWrite((file: Blob) => api.upload<ProfileJson>(profileUrls.avatar, file))

export const useBindMobile = () => useProfileWrite((body: { mobile: string; code: string }) => api.post<ProfileJson>(profileUrls.bindMobile, body))

/** Changing the password revokes every token; this device keeps working with the fresh one. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZPasswordChangeSchema>) => api.post<{ token: string }>(profileUrls.password, body),
    onSuccess: ({ token }) => storeToken(token),
  })
}

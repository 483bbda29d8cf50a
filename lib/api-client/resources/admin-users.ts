'use client'

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Page } from '@/lib/http/pagination'
import type { ZAdminUserCreateSchema, ZAdminUserUpdateSchema } from '@/lib/users/schemas'
import type { AdminUserRow } from '@/lib/users/user-views'
import type { Json } from '../hooks'
import { api } from '../request'
import { newRequestId } from '../request-id'
import { profileKeys } from './profile'
import { useWrite } from './write'

export type UserRow = Json<AdminUserRow>
export type UserListParams = { page: number; pageSize: number; keyword?: string; role?: string }
export type Adjustment = { points?: number; balance?: number; reason: string }

/** An adjustment's Idempotency-Key: made once when the dialog opens, sent with every try of it. */
export const newAdjustmentKey = newRequestId

export const adminUserUrls = {
  list: '/api/users',
  create: '/api/admin/user',
  user: (id: string) => `/api/admin/user/${id}`,
  adjust: (id: string) => `/api/admin/user/${id}/adjust`,
} as const

export const adminUserKeys = {
  all: ['admin-users'] as const,
  list: (params: UserListParams) => [...adminUserKeys.all, 'list', params] as const,
}

export const adminUserQueries = {
  list: (params: UserListParams) => queryOptions({ queryKey: adminUserKeys.list(params), queryFn: () => api.get<Page<UserRow>>(adminUserUrls.list, params) }),
}

/** Users found by a keyword (username, name or mobile), for pickers; none while the box is empty. */
export function useUserSearch(keyword: string, pageSize: number) {
  return useQuery({
    ...adminUserQueries.list({ page: 1, pageSize, keyword }),
    enabled: keyword.length > 0,
    placeholderData: keyword.length > 0 ? keepPreviousData : undefined,
  })
}

// The profile too: the admin may have changed their own name, points or balance.
const useUsersWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminUserKeys.all, profileKeys.all])

export const useCreateUser = () => useUsersWrite((body: z.input<typeof ZAdminUserCreateSchema>) => api.post(adminUserUrls.create, body))

export const useUpdateUser = () =>
  useUsersWrite(({ id, body }: { id: string; body: z.input<typeof ZAdminUserUpdateSchema> }) => api.patch(adminUserUrls.user(id), body))

export const useDeleteUser = () => useUsersWrite((id: string) => api.delete(adminUserUrls.user(id)))

/**
 * ADMIN: moves a user's points and/or balance (cents) with a reason. `key` is the
 * adjustment's Idempotency-Key, made once when the dialog opens and sent with every try,
 * so a retry after a lost answer is answered with the first result instead of booked again.
 */
export const useAdjustUser = () =>
  useUsersWrite(({ id, body, key }: { id: string; body: Adjustment; key: string }) =>
    api.post<{ points: number; balance: number }>(adminUserUrls.adjust(id), body, { headers: { 'Idempotency-Key': key } }),
  )

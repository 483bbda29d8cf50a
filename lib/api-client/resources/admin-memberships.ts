'use client'

import { queryOptions } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import { api } from '../request'
import type { UserRef } from './admin-orders'

export type MembershipKind = 'IMAGE' | 'CHAT'

/** A current member: their plan, expiry and what the plan gives. */
export type AdminMember = {
  user: UserRef
  kind: MembershipKind
  planName: string
  expiresAt: string
  dailyPoints: number | null
  discountPercent: number | null
  dailyMessages: number | null
}

export type MemberListParams = { page: number; pageSize: number; kind?: string }

export const adminMembershipUrls = { list: '/api/admin/memberships' } as const

export const adminMembershipKeys = {
  all: ['admin-memberships'] as const,
  list: (params: MemberListParams) => [...adminMembershipKeys.all, 'list', params] as const,
}

export const adminMembershipQueries = {
  list: (params: MemberListParams) =>
    queryOptions({ queryKey: adminMembershipKeys.list(params), queryFn: () => api.get<Page<AdminMember>>(adminMembershipUrls.list, params) }),
}

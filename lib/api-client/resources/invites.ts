'use client'

import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import type { MyCommissionRecord } from '@/lib/invites/list-commission'
import type { MyInvite } from '@/lib/invites/my-invite'
import type { Json } from '../hooks'
import { api } from '../request'
import { ledgerKeys } from './ledger'
import { profileKeys } from './profile'
import { useWrite } from './write'

/** docs/PRODUCT.md §17: the caller's code, link, count, earnings (cents and points) and inviter. */
export type InviteInfo = Json<MyInvite>
export type CommissionRecord = Json<MyCommissionRecord>

export const inviteUrls = { mine: '/api/users/my/invite', bind: '/api/users/bind_invite', records: '/api/users/my/invite/records' } as const

export const inviteKeys = {
  all: ['invite'] as const,
  mine: () => [...inviteKeys.all, 'mine'] as const,
  records: (params: { page: number; pageSize: number }) => [...inviteKeys.all, 'records', params] as const,
}

export const inviteQueries = {
  records: (params: { page: number; pageSize: number }) =>
    queryOptions({ queryKey: inviteKeys.records(params), queryFn: () => api.get<Page<CommissionRecord>>(inviteUrls.records, params) }),
}

export function useMyInvite() {
  return useQuery({ queryKey: inviteKeys.mine(), queryFn: () => api.get<InviteInfo>(inviteUrls.mine) })
}

/** Binds an inviter by code (once); a reward may change the points. */
export const useBindInvite = () =>
  useWrite((code: string) => api.post<InviteInfo>(inviteUrls.bind, { code }), [inviteKeys.all, profileKeys.all, ledgerKeys.all])

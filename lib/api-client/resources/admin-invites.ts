'use client'

import { queryOptions, useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Page } from '@/lib/http/pagination'
import type { AdminCommissionRecord, InviteRelation } from '@/lib/invites/list-commission'
import type { ZCommissionUpdateSchema } from '@/lib/invites/schemas'
import type { InviteSettingsView } from '@/lib/invites/settings'
import type { Json } from '../hooks'
import { api } from '../request'
import { useWrite } from './write'

export type CommissionSettings = Json<InviteSettingsView>
export type AdminCommission = Json<AdminCommissionRecord>
export type AdminInviteRelation = Json<InviteRelation>

export type CommissionListParams = { page: number; pageSize: number; keyword?: string; orderType?: string; status?: string }
export type RelationListParams = { page: number; pageSize: number; keyword?: string }

export const adminInviteUrls = {
  settings: '/api/admin/commission',
  update: '/api/admin/commission/update',
  records: '/api/admin/commission/records',
  relations: '/api/admin/invites',
} as const

export const adminInviteKeys = {
  all: ['admin-invites'] as const,
  settings: () => [...adminInviteKeys.all, 'settings'] as const,
  records: (params: CommissionListParams) => [...adminInviteKeys.all, 'records', params] as const,
  relations: (params: RelationListParams) => [...adminInviteKeys.all, 'relations', params] as const,
}

export const adminInviteQueries = {
  records: (params: CommissionListParams) =>
    queryOptions({ queryKey: adminInviteKeys.records(params), queryFn: () => api.get<Page<AdminCommission>>(adminInviteUrls.records, params) }),
  relations: (params: RelationListParams) =>
    queryOptions({ queryKey: adminInviteKeys.relations(params), queryFn: () => api.get<Page<AdminInviteRelation>>(adminInviteUrls.relations, params) }),
}

export function useCommissionSettings() {
  return useQuery({ queryKey: adminInviteKeys.settings(), queryFn: () => api.get<CommissionSettings>(adminInviteUrls.settings) })
}

/** ADMIN: rates, how commission is paid, points per yuan, the binding reward (audited). */
export const useUpdateCommissionSettings = () =>
  useWrite((body: z.input<typeof ZCommissionUpdateSchema>) => api.post<CommissionSettings>(adminInviteUrls.update, body), [adminInviteKeys.all])

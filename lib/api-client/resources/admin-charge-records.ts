'use client'

import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import type { DayTotals } from '@/lib/analysis/day-totals'
import type { ChargeRecordView } from '@/lib/payments/charge-records'
import type { Json } from '../hooks'
import { api } from '../request'
import type { OrderStatus } from './orders'
import { useWrite } from './write'

/** What one fulfilled order credited (docs/PRODUCT.md §7): amount and balance in cents. */
export type ChargeRecord = Json<ChargeRecordView>

export type ChargeDay = DayTotals

export type ChargeRecordListParams = {
  page: number
  pageSize: number
  userId?: string
  type?: string
  channel?: string
  status?: string
  from?: string
  to?: string
}

export const adminChargeRecordUrls = {
  list: '/api/admin/charge-records',
  status: (id: number) => `/api/admin/charge-records/${id}/status`,
  byDate: '/api/admin/charge-records/group-by-date',
} as const

export const adminChargeRecordKeys = {
  all: ['admin-charge-records'] as const,
  list: (params: ChargeRecordListParams) => [...adminChargeRecordKeys.all, 'list', params] as const,
  byDate: (range: { from: string; to: string }) => [...adminChargeRecordKeys.all, 'by-date', range] as const,
}

export const adminChargeRecordQueries = {
  list: (params: ChargeRecordListParams) =>
    queryOptions({ queryKey: adminChargeRecordKeys.list(params), queryFn: () => api.get<Page<ChargeRecord>>(adminChargeRecordUrls.list, params) }),
}

/** Charge totals per Beijing day over a range. */
export function useChargeRecordsByDate(range: { from: string; to: string }) {
  return useQuery({
    queryKey: adminChargeRecordKeys.byDate(range),
    queryFn: () => api.get<{ list: ChargeDay[] }>(adminChargeRecordUrls.byDate, range),
    select: (d) => d.list,
  })
}

/** ADMIN: sets a record's status (audited). */
export const useSetChargeRecordStatus = () =>
  useWrite(
    ({ id, status, note }: { id: number; status: OrderStatus; note?: string }) => api.post<ChargeRecord>(adminChargeRecordUrls.status(id), { status, note }),
    [adminChargeRecordKeys.all],
  )

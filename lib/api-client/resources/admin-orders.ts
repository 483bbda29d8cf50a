'use client'

import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import type { AdminOrderListRow, AdminOrderView } from '@/lib/payments/order-views'
import type { Json } from '../hooks'
import { api } from '../request'
import { useWrite } from './write'

export type UserRef = { id: string; name: string; username: string }

/** An order as the console lists it: its user, and a flag when something did not match. */
export type AdminOrder = Json<AdminOrderListRow>

export type OrderNotification = { id: number; channel: string; outcome: string; detail: string | null; eventId: string | null; receivedAt: string }

/** One order with the provider's transaction id, what it grants and every notification received for it (getOrderForAdmin). */
export type AdminOrderDetail = Json<AdminOrderView> & { grant: unknown; notifications: OrderNotification[] }

export type AdminOrderListParams = {
  page: number
  pageSize: number
  type?: string
  channel?: string
  status?: string
  user?: string
  from?: string
  to?: string
}

export const adminOrderUrls = {
  list: '/api/admin/orders',
  order: (id: string) => `/api/admin/orders/${id}`,
  markPaid: (id: string) => `/api/admin/orders/${id}/mark-paid`,
  refund: (id: string) => `/api/admin/orders/${id}/refund`,
} as const

export const adminOrderKeys = {
  all: ['admin-orders'] as const,
  list: (params: AdminOrderListParams) => [...adminOrderKeys.all, 'list', params] as const,
  detail: (id: string) => [...adminOrderKeys.all, 'detail', id] as const,
}

export const adminOrderQueries = {
  list: (params: AdminOrderListParams) =>
    queryOptions({ queryKey: adminOrderKeys.list(params), queryFn: () => api.get<Page<AdminOrder>>(adminOrderUrls.list, params) }),
}

/** One order with its grant and every notification received for it. */
export function useAdminOrder(id: string) {
  return useQuery({ queryKey: adminOrderKeys.detail(id), queryFn: () => api.get<AdminOrderDetail>(adminOrderUrls.order(id)), placeholderData: undefined })
}

const useOrdersWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminOrderKeys.all, ['admin-charge-records']])

/** ADMIN: settles a pending order by hand (audited, with a reason). */
export const useMarkOrderPaid = () =>
  useOrdersWrite(({ id, reason }: { id: string; reason: string }) => api.post<AdminOrderDetail>(adminOrderUrls.markPaid(id), { reason }))

/** ADMIN: refunds a paid order in full; refused when the credit was spent. */
export const useRefundOrder = () =>
  useOrdersWrite(({ id, reason }: { id: string; reason: string }) => api.post<AdminOrderDetail>(adminOrderUrls.refund(id), { reason }))

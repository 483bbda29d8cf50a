'use client'

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import type { OrderType as ServerOrderType, Status, PayChannel as ServerPayChannel, WxTradeType } from '@/lib/generated/prisma/enums'
import type { Page } from '@/lib/http/pagination'
import type { MyOrderView } from '@/lib/payments/my-orders'
import type { CreatedOrder as ServerCreatedOrder } from '@/lib/payments/order-views'
import type { PaymentInstructions } from '@/lib/payments/prepay'
import type { ALIPAY_METHODS } from '@/lib/payments/schemas'
import type { Json } from '../hooks'
import { api } from '../request'
import { ledgerKeys } from './ledger'
import { profileKeys } from './profile'
import { videoKeys } from './videos'
import type { ProductType } from './products'
import { walletKeys } from './wallet'

export type PayChannel = ServerPayChannel
export type WechatTradeType = WxTradeType
export type AlipayMethod = (typeof ALIPAY_METHODS)[number]
export type OrderStatus = Status
export type OrderType = ServerOrderType

/** One order as the API shows it to its owner; a pending one carries its payment, so any device can continue it. */
export type OrderView = Json<MyOrderView>

/** How to pay a new order: a QR code's raw text, WeixinJSBridge's arguments, or a page to go to. */
export type PaymentStart = PaymentInstructions
export type JsapiParams = NonNullable<PaymentInstructions['jsapi']>

export type CreateOrderInput = {
  productId?: number
  type: ProductType | 'BUY_VIDEO_MATERIAL' | 'BATCH_BUY_VIDEO_MATERIAL'
  /** The paid video items of a BUY_VIDEO_MATERIAL / BATCH_BUY_VIDEO_MATERIAL order. */
  videoIds?: string[]
  /** Cents; only for a custom balance recharge. */
  amount?: number
  channel: PayChannel
  tradeType?: WechatTradeType
  alipayMethod?: AlipayMethod
  /** Where Alipay and WeChat H5 send the browser back (this page), with ?order=<id>. */
  returnPath?: string
}

export type CreatedOrder = Json<ServerCreatedOrder>

export type MyOrderParams = { page: number; pageSize: number }

export const orderUrls = {
  list: '/api/orders',
  order: (id: string) => `/api/orders/${id}`,
  cancel: (id: string) => `/api/orders/${id}/cancel`,
} as const

export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (params: MyOrderParams) => [...orderKeys.lists(), params] as const,
  detail: (id: string) => [...orderKeys.all, 'detail', id] as const,
}

export const orderQueries = {
  list: (params: MyOrderParams) => queryOptions({ queryKey: orderKeys.list(params), queryFn: () => api.get<Page<OrderView>>(orderUrls.list, params) }),
}

/** docs/PRODUCT.md §5: a pending order is asked about every 2 s until it settles. */
export const ORDER_POLL_MS = 2000

/**
 * What a paid order changes: the wallet, the profile (balance, points), the ledger, the order
 * lists and the bought videos (a video page turns from 购买 to the player). Never the order
 * itself: invalidating a query from its own fetch would cancel that fetch.
 */
function useRefreshAfterPayment() {
  const queryClient = useQueryClient()
  return useCallback(
    () =>
      Promise.all(
        [walletKeys.all, profileKeys.all, ledgerKeys.all, orderKeys.lists(), videoKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
    [queryClient],
  )
}

/** One of my orders; polled while PENDING (and while `poll` is on: a closed dialog stops asking). Once paid, what it credited is reloaded. */
export function useOrder(id: string | null, { poll = true }: { poll?: boolean } = {}) {
  const refresh = useRefreshAfterPayment()
  const query = useQuery({
    queryKey: orderKeys.detail(id ?? ''),
    queryFn: () => api.get<OrderView>(orderUrls.order(id ?? '')),
    enabled: Boolean(id),
    placeholderData: undefined,
    refetchInterval: (q) => (poll && q.state.data?.status === 'PENDING' ? ORDER_POLL_MS : false),
    refetchIntervalInBackground: true,
  })
  const paid = query.data?.status === 'SUCCESS'
  useEffect(() => {
    if (paid) void refresh()
  }, [paid, refresh])
  return query
}

/**
 * Makes an order. The caller passes one Idempotency-Key per press of the pay button (and the
 * same key again on a retry), so a double click never makes two orders. Silent: the dialog
 * shows the error where the user looks (余额不足 included).
 */
export function useCreateOrder() {
  const refresh = useRefreshAfterPayment()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CreateOrderInput; idempotencyKey: string }) =>
      api.post<CreatedOrder>(orderUrls.list, input, { headers: { 'Idempotency-Key': idempotencyKey }, silent: true }),
    // A new order joins 订单记录 at once; one paid already (the balance) changes the wallet too.
    onSuccess: (created) => (created.order.status === 'SUCCESS' ? refresh() : queryClient.invalidateQueries({ queryKey: orderKeys.lists() })),
  })
}

/**
 * Cancels a pending order of mine (closed at the provider too). An order paid meanwhile comes
 * back SUCCESS instead: then what it credited is reloaded too.
 */
export function useCancelOrder() {
  const refresh = useRefreshAfterPayment()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.post<OrderView>(orderUrls.cancel(id)),
    onSuccess: (order) => Promise.all([queryClient.invalidateQueries({ queryKey: orderKeys.all }), order.status === 'SUCCESS' && refresh()]),
  })
}

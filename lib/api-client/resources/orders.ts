'use client'

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import { api } from '../request'
import { ledgerKeys } from './ledger'
import { profileKeys } from './profile'
import type { ProductType } from './products'
import { walletKeys } from './wallet'

export type PayChannel = 'WECHAT' | 'ALIPAY' | 'BALANCE'
export type WechatTradeType = 'JSAPI' | 'NATIVE' | 'MWEB' | 'APP'
export type AlipayMethod = 'page' | 'wap' | 'qr'
export type OrderStatus = 'SUCCESS' | 'FAIL' | 'PENDING' | 'CANCELED'
/** Order types: what a product sells, plus the video-material purchases of docs/PRODUCT.md §3. */
export type OrderType = ProductType | 'BUY_VIDEO_MATERIAL' | 'BATCH_BUY_VIDEO_MATERIAL'

/** One order as the API shows it to its owner; amount in cents, dates as ISO strings. */
export type OrderView = {
  id: string
  outTradeNo: string
  type: OrderType
  subject: string
  amount: number
  channel: PayChannel
  tradeType: WechatTradeType | null
  alipayMethod: AlipayMethod | null
  status: OrderStatus
  createdAt: string
  paidAt: string | null
  expiresAt: string | null
  refundedAt: string | null
}

/** The arguments of WeixinJSBridge.invoke('getBrandWCPayRequest', ...). */
export type JsapiParams = { appId: string; timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string }

/** How to pay a new order: a QR code's raw text, the bridge's arguments, or a page to go to. */
export type PaymentStart = { codeUrl?: string; jsapi?: JsapiParams; h5Url?: string; alipayUrl?: string; qrCode?: string }

export type CreateOrderInput = {
  productId?: string
  type: ProductType
  /** Cents; only for a custom balance recharge. */
  amount?: number
  channel: PayChannel
  tradeType?: WechatTradeType
  alipayMethod?: AlipayMethod
}

export type CreatedOrder = { order: OrderView; payment: PaymentStart }

export type MyOrderParams = { page: number; pageSize: number }

export const orderUrls = {
  list: '/api/orders',
  order: (id: string) => `/api/orders/${id}`,
  cancel: (id: string) => `/api/orders/${id}/cancel`,
} as const

export const orderKeys = {
  all: ['orders'] as const,
  list: (params: MyOrderParams) => [...orderKeys.all, 'list', params] as const,
  detail: (id: string) => [...orderKeys.all, 'detail', id] as const,
}

export const orderQueries = {
  list: (params: MyOrderParams) => queryOptions({ queryKey: orderKeys.list(params), queryFn: () => api.get<Page<OrderView>>(orderUrls.list, params) }),
}

/** docs/PRODUCT.md §5: a pending order is asked about every 2 s until it settles. */
export const ORDER_POLL_MS = 2000

/** What a paid order changes: the wallet, the profile (balance, points), the ledger and the order lists. */
function useRefreshAfterPayment() {
  const queryClient = useQueryClient()
  return () => Promise.all([walletKeys.all, profileKeys.all, ledgerKeys.all, orderKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
}

/** One of my orders; polled while PENDING (and while `poll` is on: a closed dialog stops asking). */
export function useOrder(id: string | null, { poll = true }: { poll?: boolean } = {}) {
  const refresh = useRefreshAfterPayment()
  return useQuery({
    queryKey: orderKeys.detail(id ?? ''),
    queryFn: async () => {
      const order = await api.get<OrderView>(orderUrls.order(id ?? ''))
      if (order.status === 'SUCCESS') void refresh()
      return order
    },
    enabled: Boolean(id),
    placeholderData: undefined,
    refetchInterval: (query) => (poll && query.state.data?.status === 'PENDING' ? ORDER_POLL_MS : false),
    refetchIntervalInBackground: true,
  })
}

/**
 * Makes an order. The caller passes one Idempotency-Key per press of the pay button (and the
 * same key again on a retry), so a double click never makes two orders. Silent: the dialog
 * shows the error where the user looks (余额不足 included).
 */
export function useCreateOrder() {
  const refresh = useRefreshAfterPayment()
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CreateOrderInput; idempotencyKey: string }) =>
      api.post<CreatedOrder>(orderUrls.list, input, { headers: { 'Idempotency-Key': idempotencyKey }, silent: true }),
    onSuccess: (created) => (created.order.status === 'SUCCESS' ? refresh() : undefined),
  })
}

/** Cancels a pending order of mine (closed at the provider too). */
export function useCancelOrder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.post<OrderView>(orderUrls.cancel(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  })
}

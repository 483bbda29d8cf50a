import type { Prisma } from '@/lib/generated/prisma/client'
import type { PaymentInstructions } from './prepay'

/** What a user sees of an order (GET /api/orders, docs/PRODUCT.md §14). */
export const ORDER_SELECT = {
  id: true,
  outTradeNo: true,
  type: true,
  subject: true,
  amount: true,
  channel: true,
  tradeType: true,
  alipayMethod: true,
  status: true,
  createdAt: true,
  paidAt: true,
  expiresAt: true,
  refundedAt: true,
} satisfies Prisma.OrderSelect

export type OrderView = Prisma.OrderGetPayload<{ select: typeof ORDER_SELECT }>

export type CreatedOrder = { order: OrderView; payment: PaymentInstructions }

/** The console's view adds who, the provider's id, the flag and how many notifications arrived. */
export const ADMIN_ORDER_SELECT = {
  ...ORDER_SELECT,
  providerTxnId: true,
  flag: true,
  refundReason: true,
  user: { select: { id: true, name: true, username: true } },
  _count: { select: { notifications: true } },
} satisfies Prisma.OrderSelect

type AdminOrderRow = Prisma.OrderGetPayload<{ select: typeof ADMIN_ORDER_SELECT }>

/** Generic, so a detail read with more fields (grant, notifications) keeps them in its type. */
export function adminOrderView<R extends AdminOrderRow>(row: R): Omit<R, '_count'> & { notificationCount: number } {
  const { _count, ...rest } = row
  return { ...rest, notificationCount: _count.notifications }
}
export type AdminOrderView = ReturnType<typeof adminOrderView<AdminOrderRow>>

/**
 * A row of the console's order list: what its table shows. When it was paid and expires, the
 * provider's id, the refund's reason and the notifications are the detail's (GET /api/admin/orders/{id}).
 */
export type AdminOrderListRow = Omit<AdminOrderView, 'paidAt' | 'expiresAt' | 'providerTxnId' | 'refundReason' | 'notificationCount'>

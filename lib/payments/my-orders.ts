import 'server-only'
import { db } from '@/lib/db'
import { badRequest, notFound } from '@/lib/http/app-error'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { ORDER_SELECT, type OrderView } from './order-views'
import type { PaymentInstructions } from './prepay'
import { cancelPending, closeAtProvider, queryProvider } from './provider-status'

/** A page polling its order asks the provider at most this often (per order, across processes). */
export const POLL_QUERY_EVERY_MS = 5_000

export async function listMyOrders(userId: string, query: TPageQuery): Promise<Page<OrderView>> {
  const [list, total] = await Promise.all([
    db().order.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: ORDER_SELECT, ...pageArgs(query) }),
    db().order.count({ where: { userId } }),
  ])
  return { list, total }
}

export type MyOrderView = OrderView & { payment?: PaymentInstructions }

/**
 * One of the user's orders (another user's is a 404). While it is pending at a provider,
 * reading it also asks the provider, at most every few seconds: the page that polls learns
 * of a payment even when the notification is slow or lost. A pending order carries its
 * payment, so another device can continue paying it.
 */
export async function getMyOrder(userId: string, orderId: string): Promise<MyOrderView> {
  const order = await db().order.findFirst({ where: { id: orderId, userId }, select: ORDER_SELECT })
  if (!order) throw notFound('订单不存在')
  if (order.status !== 'PENDING' || order.channel === 'BALANCE') return order
  const since = new Date(Date.now() - POLL_QUERY_EVERY_MS)
  const { count } = await db().order.updateMany({
    where: { id: orderId, status: 'PENDING', OR: [{ lastQueriedAt: null }, { lastQueriedAt: { lt: since } }] },
    data: { lastQueriedAt: new Date(), queryCount: { increment: 1 } },
  })
  if (count === 1) await queryProvider(order).catch(() => undefined)
  const { payment, ...now } = await db().order.findUniqueOrThrow({ where: { id: orderId }, select: { ...ORDER_SELECT, payment: true } })
  return now.status === 'PENDING' && payment ? { ...now, payment: payment as PaymentInstructions } : now
}

/** The user gives up on a pending order: closed at the provider first (a payment that beat us is kept and credited). */
export async function cancelMyOrder(userId: string, orderId: string): Promise<OrderView> {
  const order = await db().order.findFirst({ where: { id: orderId, userId }, select: { id: true, outTradeNo: true, channel: true, status: true } })
  if (!order) throw notFound('订单不存在')
  if (order.status !== 'PENDING') throw badRequest('只有待支付的订单可以取消')
  if (!(await closeAtProvider(order))) {
    const now = await db().order.findUniqueOrThrow({ where: { id: orderId }, select: ORDER_SELECT })
    if (now.status === 'SUCCESS') return now
    throw badRequest('暂时无法在支付平台关闭订单，请稍后再试')
  }
  await cancelPending(order.id)
  return db().order.findUniqueOrThrow({ where: { id: orderId }, select: ORDER_SELECT })
}

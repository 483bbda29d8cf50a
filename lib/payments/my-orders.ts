import 'server-only'
import { db, dbPool } from '@/lib/db'
import { jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, notFound } from '@/lib/http/app-error'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { ORDER_VIEW_FIELDS } from './order-json'
import { ORDER_SELECT, type OrderView } from './order-views'
import type { PaymentInstructions } from './prepay'
import { cancelAfterClose, closeAtProvider, queryProvider } from './provider-status'

/** A page polling its order asks the provider at most this often (per order, across processes). */
export const POLL_QUERY_EVERY_MS = 5_000

/**
 * The caller's orders, newest first, and how many there are, in one statement: the total and
 * the page by the caller's id (the ("userId", "createdAt") index; no index has the id that
 * breaks ties, so the page sorts the caller's orders), each row written as JSON. An empty
 * page is one row: the total.
 */
export async function listMyOrders(userId: string, query: TPageQuery): Promise<Page<Listed<OrderView>>> {
  const { skip, take } = pageArgs(query)
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT k."total", ${myOrderRowJson} AS "row"
    FROM (SELECT count(*)::int AS "total" FROM "Order" WHERE "userId" = ${userId}) k
    LEFT JOIN LATERAL (SELECT ${ORDER_COLUMNS} FROM "Order" WHERE "userId" = ${userId} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) o ON true
    ORDER BY o."createdAt" DESC, o."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<OrderView>>(rows)
}

/** ORDER_SELECT's columns, in its order. */
const ORDER_COLUMNS = Prisma.raw(
  Object.keys(ORDER_SELECT)
    .map((key) => `"${key}"`)
    .join(', '),
)

const myOrderRowJson = jsonRowText<Listed<OrderView>>(Prisma.sql`o."id" IS NOT NULL`, ORDER_VIEW_FIELDS)

export type MyOrderView = OrderView & { payment?: PaymentInstructions }

/**
 * One of the user's orders (another user's is a 404). While it is pending at a provider,
 * reading it also asks the provider, at most every few seconds: the page that polls learns
 * of a payment even when the notification is slow or lost. A pending order carries its
 * payment, so another device can continue paying it.
 */
export async function getMyOrder(userId: string, orderId: string): Promise<Listed<OrderView> | MyOrderView> {
  const [order] = await readRows<Listed<OrderView>[]>(Prisma.sql`SELECT ${ORDER_COLUMNS} FROM "Order" WHERE "id" = ${orderId} AND "userId" = ${userId}`)
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
  const order = await db().order.findFirst({
    where: { id: orderId, userId },
    select: { id: true, outTradeNo: true, channel: true, status: true, expiresAt: true },
  })
  if (!order) throw notFound('订单不存在')
  if (order.status !== 'PENDING') throw badRequest('只有待支付的订单可以取消')
  const closed = await closeAtProvider(order)
  if (!closed) {
    const now = await db().order.findUniqueOrThrow({ where: { id: orderId }, select: ORDER_SELECT })
    if (now.status === 'SUCCESS') return now
    throw badRequest('暂时无法在支付平台关闭订单，请稍后再试')
  }
  await cancelAfterClose(order, closed)
  return db().order.findUniqueOrThrow({ where: { id: orderId }, select: ORDER_SELECT })
}

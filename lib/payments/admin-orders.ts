import 'server-only'
import { db, dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import type { PayChannel } from '@/lib/generated/prisma/enums'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, notFound } from '@/lib/http/app-error'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import type { Page } from '@/lib/http/pagination'
import { beijingRange } from '@/lib/beijing-time'
import { fulfilOrder } from './fulfil-order'
import { closeAtProvider } from './provider-status'
import { refundedAtProvider } from './settle-paid'
import { keptFilters } from './kept-filters'
import { ORDER_VIEW_FIELDS } from './order-json'
import type { AdminOrderListRow, AdminOrderView } from './order-views'
import type { TAdminOrderQuery } from './schemas'

/** /admin/order_mana: every order, filtered by type, channel, status, user (id, username, name or phone) and Beijing dates. */
export async function listOrdersForAdmin(query: TAdminOrderQuery): Promise<Page<Listed<AdminOrderListRow>>> {
  const user = query.user
  const like = user ? `%${escapeLike(user)}%` : ''
  const range = beijingRange(query.from, query.to)
  const kept = keptFilters(query)
  const conditions = [
    ...kept,
    // Through the ("userId", "createdAt") and "outTradeNo" indexes: the orders of every user the text names, or the order it is the number of.
    user
      ? Prisma.sql`("userId" = ANY (ARRAY(SELECT "id" FROM "User" WHERE "id" = ${user} OR "username" LIKE ${like} OR "name" LIKE ${like} OR "mobile" = ${user}))
          OR "outTradeNo" = ${user})`
      : null,
    range?.gte ? Prisma.sql`"createdAt" >= ${range.gte}` : null,
    range?.lt ? Prisma.sql`"createdAt" < ${range.lt}` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  // The exact total: by type, channel and status alone, the counters the triggers on "Order" keep
  // in step with every write (migration other_list_counts); a user or dates count their matches.
  const total =
    user || range
      ? Prisma.sql`SELECT count(*)::int AS "total" FROM "Order" ${where}`
      : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "OrderCount" ${kept.length ? Prisma.sql`WHERE ${Prisma.join(kept, ' AND ')}` : Prisma.empty}`
  // One statement: the total, and the page cut on the (status,) createdAt, id index before its
  // owner is looked up, each row written as JSON. An empty page is one row of the total.
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT c."total", ${orderRowJson} AS "row"
    FROM (${total}) c
    LEFT JOIN LATERAL (SELECT * FROM "Order" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(query.pageSize)} OFFSET ${(query.page - 1) * query.pageSize}) o ON true
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = o."userId" LIMIT 1) u ON true
    ORDER BY o."createdAt" DESC, o."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<AdminOrderListRow>>(rows)
}

const { paidAt: _paidAt, expiresAt: _expiresAt, ...LISTED_ORDER_FIELDS } = ORDER_VIEW_FIELDS
const ORDER_USER_JSON = jsonObject({ id: Prisma.sql`u."id"`, name: Prisma.sql`u."name"`, username: Prisma.sql`u."username"` })

/** Key by key in the order the console's Prisma select gives them (no paidAt or expiresAt: the detail's). */
const orderRowJson = jsonRowText<Listed<AdminOrderListRow>>(Prisma.sql`o."id" IS NOT NULL`, {
  ...LISTED_ORDER_FIELDS,
  flag: Prisma.sql`o."flag"`,
  user: ORDER_USER_JSON,
})

type OrderNotificationRow = { id: number; channel: PayChannel; outcome: string; detail: string | null; eventId: string | null; receivedAt: string }

/** The console's detail of an order: its view, what it grants and every notification received for it. */
export type AdminOrderDetail = Listed<AdminOrderView> & { grant: Prisma.JsonValue; notifications: OrderNotificationRow[] }

/** Key by key in the order the Prisma select (ADMIN_ORDER_SELECT, grant, notifications) and adminOrderView gave them. */
const orderDetailJson = jsonObject<AdminOrderDetail>({
  ...ORDER_VIEW_FIELDS,
  providerTxnId: Prisma.sql`o."providerTxnId"`,
  flag: Prisma.sql`o."flag"`,
  refundReason: Prisma.sql`o."refundReason"`,
  user: ORDER_USER_JSON,
  grant: Prisma.sql`o."grant"`,
  notifications: Prisma.sql`n."list"`,
  notificationCount: Prisma.sql`n."count"`,
})

/**
 * One order with what it grants and every notification received for it, in one statement:
 * the order, its owner and its notifications (by the "orderId" index, oldest first, with
 * their count), written by PostgreSQL as the answer's JSON.
 */
export async function getOrderForAdmin(orderId: string): Promise<AdminOrderDetail> {
  const [found] = await readRows<{ order: AdminOrderDetail }[]>(Prisma.sql`
    SELECT ${orderDetailJson} AS "order"
    FROM (SELECT * FROM "Order" WHERE "id" = ${orderId}) o
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = o."userId" LIMIT 1) u ON true
    CROSS JOIN LATERAL (
      SELECT coalesce(json_agg(p ORDER BY p."id"), '[]') AS "list", count(*)::int AS "count"
      FROM (SELECT "id", "channel", "outcome", "detail", "eventId", ${isoText(Prisma.sql`"receivedAt"`)} AS "receivedAt"
        FROM "PaymentNotification" WHERE "orderId" = o."id") p
    ) n`)
  if (!found) throw notFound('订单不存在')
  return found.order
}

/**
 * An ADMIN confirms money the system did not see (a bank transfer, a payment the provider
 * cannot report). The same conditional fulfilment as a notification, so it never credits twice;
 * audited with the reason.
 */
export async function markOrderPaid(actor: SessionUser, ip: string, orderId: string, reason: string) {
  const pending = await db().order.findFirst({ where: { id: orderId, status: 'PENDING' }, select: { id: true, outTradeNo: true, channel: true } })
  // Its payment code is closed first, so the buyer cannot pay it as well once it is marked paid
  // (best effort: a provider out of reach must not stop the confirmation). A payment that beat
  // the close is settled as the provider's, and the marking below then finds it paid.
  if (pending && pending.channel !== 'BALANCE') await closeAtProvider(pending).catch(() => false)
  await db().$transaction(async (tx) => {
    // Locked, so the reconciler cannot cancel it as refunded at WeChat between this read and the fulfilment.
    const [order] = await tx.$queryRaw<{ status: string; flag: string | null }[]>`
      SELECT "status"::text AS "status", "flag" FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`
    if (!order) throw notFound('订单不存在')
    if (order.status === 'SUCCESS') throw badRequest('订单已经支付成功')
    const refunded = refundedAtProvider(order)
    if (refunded) throw badRequest(refunded)
    const done = (await fulfilOrder(tx, orderId, { by: 'admin' })) || (await fulfilOrder(tx, orderId, { by: 'admin' }, { late: true }))
    if (!done) throw badRequest('订单状态已变化，请刷新后再试')
    await recordAudit(tx, actor, ip, {
      action: 'order.mark-paid',
      targetType: 'Order',
      targetId: orderId,
      before: { status: order.status },
      after: { status: 'SUCCESS' },
      reason,
    })
  })
  return getOrderForAdmin(orderId)
}

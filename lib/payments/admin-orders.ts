import 'server-only'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, notFound } from '@/lib/http/app-error'
import type { Page } from '@/lib/http/pagination'
import { beijingRange } from '@/lib/beijing-time'
import { fulfilOrder } from './fulfil-order'
import { ADMIN_ORDER_SELECT, adminOrderView, type AdminOrderView } from './order-views'
import type { TAdminOrderQuery } from './schemas'

/** /admin/order_mana: every order, filtered by type, channel, status, user (id, username, name or phone) and Beijing dates. */
export async function listOrdersForAdmin(query: TAdminOrderQuery): Promise<Page<AdminOrderView>> {
  const user = query.user
  const where: Prisma.OrderWhereInput = {
    ...(query.type ? { type: query.type } : {}),
    ...(query.channel ? { channel: query.channel } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(user
      ? { OR: [{ userId: user }, { outTradeNo: user }, { user: { OR: [{ username: { contains: user } }, { name: { contains: user } }, { mobile: user }] } }] }
      : {}),
    ...(beijingRange(query.from, query.to) ? { createdAt: beijingRange(query.from, query.to) } : {}),
  }
  const [rows, total] = await Promise.all([
    db().order.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: ADMIN_ORDER_SELECT,
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db().order.count({ where }),
  ])
  return { list: rows.map(adminOrderView), total }
}

/** One order with what it grants and every notification received for it. */
export async function getOrderForAdmin(orderId: string) {
  const row = await db().order.findUnique({
    where: { id: orderId },
    select: {
      ...ADMIN_ORDER_SELECT,
      grant: true,
      notifications: { orderBy: { id: 'asc' }, select: { id: true, channel: true, outcome: true, detail: true, eventId: true, receivedAt: true } },
    },
  })
  if (!row) throw notFound('订单不存在')
  return adminOrderView(row)
}

/**
 * An ADMIN confirms money the system did not see (a bank transfer, a payment the provider
 * cannot report). The same conditional fulfilment as a notification, so it never credits twice;
 * audited with the reason.
 */
export async function markOrderPaid(actor: SessionUser, ip: string, orderId: string, reason: string) {
  await db().$transaction(async (tx) => {
    const order = await tx.order.findUnique({ where: { id: orderId }, select: { status: true } })
    if (!order) throw notFound('订单不存在')
    if (order.status === 'SUCCESS') throw badRequest('订单已经支付成功')
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

import 'server-only'
import { isoText, type JsonFields } from '@/lib/db/json-rows'
import type { Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import type { OrderView } from './order-views'

/** The order (o) as a user sees it (ORDER_SELECT), key by key in its order: the start of every order row and detail written as JSON. */
export const ORDER_VIEW_FIELDS: JsonFields<Listed<OrderView>> = {
  id: Prisma.sql`o."id"`,
  outTradeNo: Prisma.sql`o."outTradeNo"`,
  type: Prisma.sql`o."type"`,
  subject: Prisma.sql`o."subject"`,
  amount: Prisma.sql`o."amount"`,
  channel: Prisma.sql`o."channel"`,
  tradeType: Prisma.sql`o."tradeType"`,
  alipayMethod: Prisma.sql`o."alipayMethod"`,
  status: Prisma.sql`o."status"`,
  createdAt: isoText(Prisma.sql`o."createdAt"`),
  paidAt: isoText(Prisma.sql`o."paidAt"`),
  expiresAt: isoText(Prisma.sql`o."expiresAt"`),
  refundedAt: isoText(Prisma.sql`o."refundedAt"`),
}

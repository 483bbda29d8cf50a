import 'server-only'
import { Prisma } from '@/lib/generated/prisma/client'
import type { OrderType, PayChannel, Status } from '@/lib/generated/prisma/enums'

/** The filters of the order and charge-record lists that their kept totals answer: type, channel, status. */
export function keptFilters(query: { type?: OrderType; channel?: PayChannel; status?: Status }): Prisma.Sql[] {
  return [
    query.type ? Prisma.sql`"type" = ${query.type}::"OrderType"` : null,
    query.channel ? Prisma.sql`"channel" = ${query.channel}::"PayChannel"` : null,
    query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null,
  ].filter((c) => c !== null)
}

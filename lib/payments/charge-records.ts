import 'server-only'
import { db, dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Status } from '@/lib/generated/prisma/enums'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { notFound } from '@/lib/http/app-error'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import type { Page } from '@/lib/http/pagination'
import { beijingRange } from '@/lib/beijing-time'
import { keptFilters } from './kept-filters'
import type { TChargeRecordQuery } from './schemas'

const SELECT = {
  id: true,
  user: { select: { id: true, name: true, username: true } },
  orderId: true,
  order: { select: { outTradeNo: true } },
  type: true,
  channel: true,
  amount: true,
  points: true,
  balance: true,
  days: true,
  status: true,
  note: true,
  createdAt: true,
} satisfies Prisma.ChargeRecordSelect

type Row = Prisma.ChargeRecordGetPayload<{ select: typeof SELECT }>
const view = ({ order, ...rest }: Row) => ({ ...rest, outTradeNo: order.outTradeNo })
export type ChargeRecordView = ReturnType<typeof view>

/** /admin/charge_record and /admin/user_charge_record_mana (with userId). */
export async function listChargeRecords(query: TChargeRecordQuery): Promise<Page<Listed<ChargeRecordView>>> {
  const range = beijingRange(query.from, query.to)
  const kept = keptFilters(query)
  const conditions = [
    ...kept,
    query.userId ? Prisma.sql`"userId" = ${query.userId}` : null,
    range?.gte ? Prisma.sql`"createdAt" >= ${range.gte}` : null,
    range?.lt ? Prisma.sql`"createdAt" < ${range.lt}` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  // The exact total: by type, channel and status alone, the counters the triggers on
  // "ChargeRecord" keep in step with every write (migration other_list_counts); a user or dates
  // count their matches (through the ("userId", …) and "createdAt" indexes).
  const total =
    query.userId || range
      ? Prisma.sql`SELECT count(*)::int AS "total" FROM "ChargeRecord" ${where}`
      : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "ChargeRecordCount" ${kept.length ? Prisma.sql`WHERE ${Prisma.join(kept, ' AND ')}` : Prisma.empty}`
  // One statement: the total, and the page cut on the id (or "userId", id) index before the
  // joins to its owner and order. An empty page is one row of the total.
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT c."total", ${chargeRecordRowJson} AS "row"
    FROM (${total}) c
    LEFT JOIN LATERAL (SELECT * FROM "ChargeRecord" ${where} ORDER BY "id" DESC LIMIT ${pageLimit(query.pageSize)} OFFSET ${(query.page - 1) * query.pageSize}) r ON true
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = r."userId" LIMIT 1) u ON true
    LEFT JOIN LATERAL (SELECT "outTradeNo" FROM "Order" WHERE "id" = r."orderId" LIMIT 1) o ON true
    ORDER BY r."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<ChargeRecordView>>(rows)
}

/** Key by key in the order `view` gives them (the answer of setChargeRecordStatus). */
const chargeRecordRowJson = jsonRowText<Listed<ChargeRecordView>>(Prisma.sql`r."id" IS NOT NULL`, {
  id: Prisma.sql`r."id"`,
  user: jsonObject({ id: Prisma.sql`u."id"`, name: Prisma.sql`u."name"`, username: Prisma.sql`u."username"` }),
  orderId: Prisma.sql`r."orderId"`,
  type: Prisma.sql`r."type"`,
  channel: Prisma.sql`r."channel"`,
  amount: Prisma.sql`r."amount"`,
  points: Prisma.sql`r."points"`,
  balance: Prisma.sql`r."balance"`,
  days: Prisma.sql`r."days"`,
  status: Prisma.sql`r."status"`,
  note: Prisma.sql`r."note"`,
  createdAt: isoText(Prisma.sql`r."createdAt"`),
  outTradeNo: Prisma.sql`o."outTradeNo"`,
})

/** The charge-record status call (docs/PRODUCT.md §7.3): bookkeeping only (money moves through orders and refunds), ADMIN and audited. */
export async function setChargeRecordStatus(actor: SessionUser, ip: string, id: number, status: Status, note?: string): Promise<ChargeRecordView> {
  return db().$transaction(async (tx) => {
    const before = await tx.chargeRecord.findUnique({ where: { id }, select: { status: true, note: true } })
    if (!before) throw notFound('充值记录不存在')
    const row = await tx.chargeRecord.update({ where: { id }, data: { status, ...(note !== undefined ? { note } : {}) }, select: SELECT })
    await recordAudit(tx, actor, ip, {
      action: 'charge-record.status',
      targetType: 'ChargeRecord',
      targetId: String(id),
      before,
      after: { status, note: row.note },
    })
    return view(row)
  })
}

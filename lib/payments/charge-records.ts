import 'server-only'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { Status } from '@/lib/generated/prisma/enums'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, notFound } from '@/lib/http/app-error'
import type { Page } from '@/lib/http/pagination'
import { beijingDayStart, beijingRange } from '@/lib/beijing-time'
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
export async function listChargeRecords(query: TChargeRecordQuery): Promise<Page<ChargeRecordView>> {
  const range = beijingRange(query.from, query.to)
  const where: Prisma.ChargeRecordWhereInput = {
    ...(query.userId ? { userId: query.userId } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.channel ? { channel: query.channel } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(range ? { createdAt: range } : {}),
  }
  const [rows, total] = await Promise.all([
    db().chargeRecord.findMany({ where, orderBy: { id: 'desc' }, select: SELECT, skip: (query.page - 1) * query.pageSize, take: query.pageSize }),
    db().chargeRecord.count({ where }),
  ])
  return { list: rows.map(view), total }
}

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

export type DayTotals = { date: string; amount: number; count: number; byType: Record<string, number>; byChannel: Record<string, number> }

const MAX_DAYS = 366

/** Paid amounts per Beijing day (every day of the range, zero days included), by type and channel. */
export async function chargeTotalsByDate(from: string, to: string): Promise<DayTotals[]> {
  const start = beijingDayStart(from)
  const end = new Date(beijingDayStart(to).getTime() + 86_400_000)
  const days = Math.round((end.getTime() - start.getTime()) / 86_400_000)
  if (days < 1) throw badRequest('结束日期不能早于开始日期')
  if (days > MAX_DAYS) throw badRequest(`一次最多查询 ${MAX_DAYS} 天`)
  const rows = await db().$queryRaw<{ day: string; type: string; channel: string; amount: bigint; count: bigint }[]>`
    SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS "day", "type"::text AS "type", "channel"::text AS "channel",
      SUM("amount") AS "amount", COUNT(*) AS "count"
    FROM "ChargeRecord" WHERE "createdAt" >= ${start} AND "createdAt" < ${end} AND "status" = 'SUCCESS'
    GROUP BY 1, 2, 3`
  const byDay = new Map<string, DayTotals>()
  for (let i = 0; i < days; i++) {
    const date = new Date(start.getTime() + i * 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10)
    byDay.set(date, { date, amount: 0, count: 0, byType: {}, byChannel: {} })
  }
  for (const row of rows) {
    const day = byDay.get(row.day)
    if (!day) continue
    const amount = Number(row.amount)
    day.amount += amount
    day.count += Number(row.count)
    day.byType[row.type] = (day.byType[row.type] ?? 0) + amount
    day.byChannel[row.channel] = (day.byChannel[row.channel] ?? 0) + amount
  }
  return [...byDay.values()]
}

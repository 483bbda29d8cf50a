import 'server-only'
import { db, dbPool } from '@/lib/db'
import { pageLimit, readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { maskName, type TCommissionRecordQuery, type TInviteRelationQuery } from './schemas'

export type MyCommissionRecord = {
  id: number
  /** The invitee's name, masked. */
  invitee: string
  orderType: string
  orderAmount: number
  account: 'BALANCE' | 'POINTS'
  amount: number
  status: string
  note: string | null
  createdAt: string
}

type CommissionRow = Omit<MyCommissionRecord, 'id' | 'invitee'> & { total: number; id: number | null; inviteeName: string }

/**
 * /my/invite_charge_record: the caller's commission, newest first, and how many there are,
 * in one statement (as listMyTasks): the total and the page cut on the caller's records
 * before each row's invitee is looked up by key. An empty page is one row: the total.
 * The names are masked here, on the parsed rows.
 */
export async function listMyCommission(userId: string, query: TPageQuery): Promise<Page<MyCommissionRecord>> {
  const { skip, take } = pageArgs(query)
  const rows = await readRows<CommissionRow[]>(
    Prisma.sql`
    SELECT k."total", r."id", v."name" AS "inviteeName", r."orderType", r."orderAmount", r."account", r."amount", r."status", r."note", r."createdAt"
    FROM (SELECT count(*)::int AS "total" FROM "CommissionRecord" WHERE "inviterId" = ${userId}) k
    LEFT JOIN LATERAL (SELECT * FROM "CommissionRecord" WHERE "inviterId" = ${userId} ORDER BY "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) r ON true
    LEFT JOIN LATERAL (SELECT "name" FROM "User" WHERE "id" = r."inviteeId" LIMIT 1) v ON true
    ORDER BY r."id" DESC`,
    dbPool('generic'),
  )
  return {
    total: rows[0]?.total ?? 0,
    list: rows.flatMap((r) =>
      r.id === null
        ? []
        : [
            {
              id: r.id,
              invitee: maskName(r.inviteeName),
              orderType: r.orderType,
              orderAmount: r.orderAmount,
              account: r.account,
              amount: r.amount,
              status: r.status,
              note: r.note,
              createdAt: r.createdAt,
            },
          ],
    ),
  }
}

const person = { select: { id: true, name: true, username: true } } as const
type Person = { id: string; name: string; username: string }

const matching = (keyword: string): Prisma.UserWhereInput => ({
  OR: [{ id: keyword }, { username: { contains: keyword, mode: 'insensitive' } }, { name: { contains: keyword, mode: 'insensitive' } }],
})

export type AdminCommissionRecord = Omit<MyCommissionRecord, 'invitee'> & {
  orderId: string
  outTradeNo: string
  rate: number
  inviter: Person
  invitee: Person
}

/** /admin/invite_mana: every commission record, filtered by a person (either side), order type and status. */
export async function listCommissionRecords(query: TCommissionRecordQuery): Promise<Page<AdminCommissionRecord>> {
  const where: Prisma.CommissionRecordWhereInput = {
    ...(query.keyword ? { OR: [{ inviter: matching(query.keyword) }, { invitee: matching(query.keyword) }] } : {}),
    ...(query.orderType ? { orderType: query.orderType } : {}),
    ...(query.status ? { status: query.status } : {}),
  }
  const [rows, total] = await Promise.all([
    db().commissionRecord.findMany({
      where,
      orderBy: { id: 'desc' },
      ...pageArgs(query),
      include: { inviter: person, invitee: person, order: { select: { outTradeNo: true } } },
    }),
    db().commissionRecord.count({ where }),
  ])
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      orderId: r.orderId,
      outTradeNo: r.order.outTradeNo,
      inviter: r.inviter,
      invitee: r.invitee,
      orderType: r.orderType,
      orderAmount: r.orderAmount,
      rate: r.rate,
      account: r.account,
      amount: r.amount,
      status: r.status,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
    })),
  }
}

export type InviteRelation = {
  inviter: Person
  invitee: Person
  invitedAt: string
  /** The invitee's paid orders and what they paid (cents). */
  orders: number
  paid: number
  /** Commission earned on them (taken-back records excluded). */
  commission: { balance: number; points: number }
}

/** /admin/invite_mana: who invited whom, newest binding first, with the invitee's orders and the commission. */
export async function listInviteRelations(query: TInviteRelationQuery): Promise<Page<InviteRelation>> {
  const where: Prisma.UserWhereInput = {
    inviterId: { not: null },
    ...(query.keyword ? { OR: [matching(query.keyword), { inviter: matching(query.keyword) }] } : {}),
  }
  const [rows, total] = await Promise.all([
    db().user.findMany({
      where,
      orderBy: [{ invitedAt: 'desc' }, { id: 'desc' }],
      ...pageArgs(query),
      select: { id: true, name: true, username: true, invitedAt: true, inviter: { select: person.select } },
    }),
    db().user.count({ where }),
  ])
  const ids = rows.map((r) => r.id)
  const [orders, commission] = await Promise.all([
    db().order.groupBy({ by: ['userId'], where: { userId: { in: ids }, status: 'SUCCESS' }, _count: true, _sum: { amount: true } }),
    db().commissionRecord.groupBy({ by: ['inviteeId', 'account'], where: { inviteeId: { in: ids }, status: 'SUCCESS' }, _sum: { amount: true } }),
  ])
  return {
    total,
    list: rows.map((r) => {
      const o = orders.find((x) => x.userId === r.id)
      const c = (account: string) => commission.find((x) => x.inviteeId === r.id && x.account === account)?._sum.amount ?? 0
      return {
        inviter: r.inviter!,
        invitee: { id: r.id, name: r.name, username: r.username },
        invitedAt: (r.invitedAt ?? new Date(0)).toISOString(),
        orders: o?._count ?? 0,
        paid: o?._sum.amount ?? 0,
        commission: { balance: c('BALANCE'), points: c('POINTS') },
      }
    }),
  }
}

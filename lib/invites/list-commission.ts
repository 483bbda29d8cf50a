import 'server-only'
import { dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { escapeLike } from '@/lib/db/like'
import { pageLimit, readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { jsonPage, type JsonList, type JsonPageRow } from '@/lib/http/json-list'
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

type Person = { id: string; name: string; username: string }

export type AdminCommissionRecord = Omit<MyCommissionRecord, 'invitee'> & {
  orderId: string
  outTradeNo: string
  rate: number
  inviter: Person
  invitee: Person
}

/**
 * /admin/invite_mana: every commission record, filtered by a person (either side), order type
 * and status, newest first, and how many there are, in one statement: the people the keyword
 * names are found once (id, or username or name containing it, case-insensitive), the total
 * and the page are cut on the records, and each row's order and both people are looked up by
 * key, the row written as JSON. An empty page is one row: the total.
 */
export async function listCommissionRecords(query: TCommissionRecordQuery): Promise<JsonList<AdminCommissionRecord> & { total: number }> {
  const like = query.keyword ? `%${escapeLike(query.keyword)}%` : ''
  // `::text[]`: without it PostgreSQL reads `= ANY ((SELECT …))` as a comparison with each row of the subquery.
  const conditions = [
    query.keyword ? Prisma.sql`("inviterId" = ANY ((SELECT "ids" FROM "named")::text[]) OR "inviteeId" = ANY ((SELECT "ids" FROM "named")::text[]))` : null,
    query.orderType ? Prisma.sql`"orderType" = ${query.orderType}::"OrderType"` : null,
    query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  const named = query.keyword
    ? Prisma.sql`WITH "named" AS MATERIALIZED (SELECT ARRAY(SELECT "id" FROM "User" WHERE "id" = ${query.keyword} OR "username" ILIKE ${like} OR "name" ILIKE ${like}) AS "ids")`
    : Prisma.empty
  // The exact total: by order type and status alone (the same columns), the counters the triggers
  // on "CommissionRecord" keep with every write (migration invite_counts); a keyword counts its matches.
  const total = query.keyword
    ? Prisma.sql`SELECT count(*)::int AS "total" FROM "CommissionRecord" ${where}`
    : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "CommissionRecordCount" ${where}`
  const { skip, take } = pageArgs(query)
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    ${named}
    SELECT k."total", ${commissionRowJson} AS "row"
    FROM (${total}) k
    LEFT JOIN LATERAL (SELECT * FROM "CommissionRecord" ${where} ORDER BY "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) r ON true
    LEFT JOIN LATERAL (SELECT "outTradeNo" FROM "Order" WHERE "id" = r."orderId" LIMIT 1) o ON true
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = r."inviterId" LIMIT 1) a ON true
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = r."inviteeId" LIMIT 1) b ON true
    ORDER BY r."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage(rows, { restFirst: true })
}

/** Key by key as the console's list had them; the answer keeps `total` before `list`, as it always did. */
const commissionRowJson = jsonRowText<AdminCommissionRecord>(Prisma.sql`r."id" IS NOT NULL`, {
  id: Prisma.sql`r."id"`,
  orderId: Prisma.sql`r."orderId"`,
  outTradeNo: Prisma.sql`o."outTradeNo"`,
  inviter: jsonObject({ id: Prisma.sql`a."id"`, name: Prisma.sql`a."name"`, username: Prisma.sql`a."username"` }),
  invitee: jsonObject({ id: Prisma.sql`b."id"`, name: Prisma.sql`b."name"`, username: Prisma.sql`b."username"` }),
  orderType: Prisma.sql`r."orderType"`,
  orderAmount: Prisma.sql`r."orderAmount"`,
  rate: Prisma.sql`r."rate"`,
  account: Prisma.sql`r."account"`,
  amount: Prisma.sql`r."amount"`,
  status: Prisma.sql`r."status"`,
  note: Prisma.sql`r."note"`,
  createdAt: isoText(Prisma.sql`r."createdAt"`),
})

export type InviteRelation = {
  inviter: Person
  invitee: Person
  invitedAt: string
  /** The invitee's paid orders and what they paid (cents); refunded ones are not counted. */
  orders: number
  paid: number
  /** Commission earned on them (taken-back records excluded). */
  commission: { balance: number; points: number }
}

/**
 * /admin/invite_mana: who invited whom, newest binding first, with the invitee's orders and
 * the commission, in one statement: the people the keyword names are found once (either
 * side: id, or username or name containing it, case-insensitive); the total and the page are
 * cut on the invited users (read in order from their partial index); each row's inviter is
 * looked up by key and its paid orders (money that came in: not paid from the balance, no refund
 * claimed) summed from their partial ("userId", "amount") index;
 * the commission earned on the page's invitees is summed in one pass from the
 * ("inviteeId", "status", "account", "amount") index and looked up by key. An empty page is
 * one row: the total.
 */
export async function listInviteRelations(query: TInviteRelationQuery): Promise<JsonList<InviteRelation> & { total: number }> {
  const like = query.keyword ? `%${escapeLike(query.keyword)}%` : ''
  const where = query.keyword
    ? Prisma.sql`"inviterId" IS NOT NULL AND ("id" = ANY ((SELECT "ids" FROM "named")::text[]) OR "inviterId" = ANY ((SELECT "ids" FROM "named")::text[]))`
    : Prisma.sql`"inviterId" IS NOT NULL`
  const named = query.keyword
    ? Prisma.sql`"named" AS MATERIALIZED (SELECT ARRAY(SELECT "id" FROM "User" WHERE "id" = ${query.keyword} OR "username" ILIKE ${like} OR "name" ILIKE ${like}) AS "ids"),`
    : Prisma.empty
  // The exact total: invited users are counted by the triggers on "User" (migration
  // invite_counts); a keyword counts its matches.
  const total = query.keyword
    ? Prisma.sql`SELECT count(*)::int AS "total" FROM "User" WHERE ${where}`
    : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "UserCount" WHERE "invited"`
  const { skip, take } = pageArgs(query)
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    WITH ${named}
    "page" AS MATERIALIZED (
      SELECT "id", "name", "username", "invitedAt", "inviterId" FROM "User" WHERE ${where} ORDER BY "invitedAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}
    ),
    "earned" AS MATERIALIZED (
      SELECT "inviteeId", coalesce(sum("amount") FILTER (WHERE "account" = 'BALANCE'), 0) AS "balance", coalesce(sum("amount") FILTER (WHERE "account" = 'POINTS'), 0) AS "points"
      FROM "CommissionRecord" WHERE "inviteeId" = ANY (ARRAY(SELECT "id" FROM "page")) AND "status" = 'SUCCESS' GROUP BY "inviteeId"
    )
    SELECT k."total", ${relationRowJson} AS "row"
    FROM (${total}) k
    LEFT JOIN LATERAL (SELECT * FROM "page") u ON true
    LEFT JOIN LATERAL (SELECT "id", "name", "username" FROM "User" WHERE "id" = u."inviterId" LIMIT 1) i ON true
    LEFT JOIN LATERAL (SELECT count(*) AS "orders", coalesce(sum("amount"), 0) AS "paid" FROM "Order" WHERE "userId" = u."id" AND "status" = 'SUCCESS' AND "refundNo" IS NULL AND "channel" <> 'BALANCE') o ON true
    LEFT JOIN LATERAL (SELECT "balance", "points" FROM "earned" WHERE "inviteeId" = u."id" LIMIT 1) c ON true
    ORDER BY u."invitedAt" DESC, u."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage(rows, { restFirst: true })
}

/** Key by key as the console's list had them; the answer keeps `total` before `list`, as it always did. */
const relationRowJson = jsonRowText<InviteRelation>(Prisma.sql`u."id" IS NOT NULL`, {
  inviter: jsonObject({ id: Prisma.sql`i."id"`, name: Prisma.sql`i."name"`, username: Prisma.sql`i."username"` }),
  invitee: jsonObject({ id: Prisma.sql`u."id"`, name: Prisma.sql`u."name"`, username: Prisma.sql`u."username"` }),
  invitedAt: isoText(Prisma.sql`coalesce(u."invitedAt", '1970-01-01 00:00:00'::timestamp)`),
  orders: Prisma.sql`o."orders"`,
  paid: Prisma.sql`o."paid"`,
  commission: jsonObject({ balance: Prisma.sql`coalesce(c."balance", 0)`, points: Prisma.sql`coalesce(c."points", 0)` }),
})

import 'server-only'
import { dbPool } from '@/lib/db'
import { isoText, jsonObject } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import type { LedgerAccount, LedgerKind } from '@/lib/generated/prisma/enums'
import { jsonList } from '@/lib/http/json-list'

export type LedgerRow = {
  id: number
  account: LedgerAccount
  kind: LedgerKind
  amount: number
  balanceAfter: number
  note: string | null
  createdAt: Date
}

export type LedgerFeed = { list: Listed<LedgerRow>[]; nextCursor: number | null }

/**
 * A user's own ledger, newest first, in pages that follow a cursor (the last id seen). One
 * statement on the ("userId", "id") index, one row more than the page to know whether
 * another follows; each row written as JSON by PostgreSQL (lib/db/json-rows.ts).
 */
export async function listLedger(userId: string, options: { cursor?: number; limit: number }): Promise<LedgerFeed> {
  const rows = await readRows<{ id: number; row: string }[]>(
    Prisma.sql`
    SELECT e."id", ${ledgerRowJson}::text AS "row"
    FROM "LedgerEntry" e
    WHERE e."userId" = ${userId} ${options.cursor ? Prisma.sql`AND e."id" < ${options.cursor}` : Prisma.empty}
    ORDER BY e."id" DESC
    LIMIT ${pageLimit(options.limit + 1)}`,
    dbPool('generic'),
  )
  const hasMore = rows.length > options.limit
  const page = hasMore ? rows.slice(0, options.limit) : rows
  return jsonList<Listed<LedgerRow>, { nextCursor: number | null }>(
    page.map((r) => r.row),
    { nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null },
  )
}

/** Key by key in the order of the Prisma select it replaced (LedgerRow). */
const ledgerRowJson = jsonObject<Listed<LedgerRow>>({
  id: Prisma.sql`e."id"`,
  account: Prisma.sql`e."account"`,
  kind: Prisma.sql`e."kind"`,
  amount: Prisma.sql`e."amount"`,
  balanceAfter: Prisma.sql`e."balanceAfter"`,
  note: Prisma.sql`e."note"`,
  createdAt: isoText(Prisma.sql`e."createdAt"`),
})

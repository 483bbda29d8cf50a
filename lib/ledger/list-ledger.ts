import 'server-only'
import { db } from '@/lib/db'
import type { LedgerAccount, LedgerKind } from '@/lib/generated/prisma/enums'

export type LedgerRow = {
  id: number
  account: LedgerAccount
  kind: LedgerKind
  amount: number
  balanceAfter: number
  note: string | null
  createdAt: Date
}

export type LedgerFeed = { list: LedgerRow[]; nextCursor: number | null }

/** A user's own ledger, newest first, in pages that follow a cursor (the last id seen). */
export async function listLedger(userId: string, options: { cursor?: number; limit: number }): Promise<LedgerFeed> {
  const rows = await db().ledgerEntry.findMany({
    where: { userId, ...(options.cursor ? { id: { lt: options.cursor } } : {}) },
    orderBy: { id: 'desc' },
    take: options.limit + 1,
    select: { id: true, account: true, kind: true, amount: true, balanceAfter: true, note: true, createdAt: true },
  })
  const hasMore = rows.length > options.limit
  const list = hasMore ? rows.slice(0, options.limit) : rows
  return { list, nextCursor: hasMore ? (list.at(-1)?.id ?? null) : null }
}

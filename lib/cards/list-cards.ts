import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Status } from '@/lib/generated/prisma/enums'
import { nearerEndWindow, pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { MY_CARD_SELECT, toAdminCardRow, toMyCard, type AdminCardRow, type MyCard } from './card-views'

/** The admin card list, newest first: /admin/cards_mana (docs/PRODUCT.md §2.4). */
export async function listCards(query: TPageQuery & { status?: Status; keyword?: string; batchId?: number }): Promise<Page<AdminCardRow>> {
  const keyword = query.keyword ? `%${escapeLike(query.keyword.toUpperCase())}%` : undefined
  const total = keyword
    ? await db().card.count({ where: { ...filterOf(query), cardNo: { contains: escapeLike(query.keyword!.toUpperCase()) } } })
    : await keptCount(query)
  const window = nearerEndWindow(pageArgs(query), total)
  if (!window) return { list: [], total }
  const conditions = [
    query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null,
    query.batchId ? Prisma.sql`"batchId" = ${query.batchId}` : null,
    keyword ? Prisma.sql`"cardNo" LIKE ${keyword}` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  const order = window.order === 'asc' ? Prisma.sql`ASC` : Prisma.sql`DESC`
  // One statement: the page's ids from the index alone, walked from whichever end is nearer
  // (so the last page costs what the first does), then those rows with their people and batch.
  const rows = await db().$queryRaw<PageRow[]>`
    SELECT c."id", c."cardNo", c."keyMask", c."points", c."status", c."failReason", c."usedAt", c."disabledAt", c."expiresAt", c."createdAt",
           c."usedById", u."name" AS "usedByName", c."holderId", h."name" AS "holderName", c."batchId", b."note" AS "batchNote"
    FROM (SELECT "id" FROM "Card" ${where} ORDER BY "id" ${order} LIMIT ${window.take} OFFSET ${window.skip}) p
    JOIN "Card" c ON c."id" = p."id"
    JOIN "CardBatch" b ON b."id" = c."batchId"
    LEFT JOIN "User" u ON u."id" = c."usedById"
    LEFT JOIN "User" h ON h."id" = c."holderId"
    ORDER BY c."id" DESC`
  return { list: rows.map(toRow), total }
}

type PageRow = Omit<AdminCardRow, 'cardKey' | 'claimant' | 'holder' | 'batch'> & {
  keyMask: string
  usedById: string | null
  usedByName: string | null
  holderId: string | null
  holderName: string | null
  batchId: number
  batchNote: string | null
}

function toRow({ usedById, usedByName, holderId, holderName, batchId, batchNote, ...card }: PageRow): AdminCardRow {
  return toAdminCardRow({
    ...card,
    usedBy: usedById ? { id: usedById, name: usedByName ?? '' } : null,
    holder: holderId ? { id: holderId, name: holderName ?? '' } : null,
    batch: { id: batchId, note: batchNote },
  })
}

const filterOf = (query: { status?: Status; batchId?: number }) => ({
  ...(query.status ? { status: query.status } : {}),
  ...(query.batchId ? { batchId: query.batchId } : {}),
})

/**
 * The exact number of cards for a status and/or batch filter, from the counters the
 * triggers on "Card" keep in step with every write (migration list_counts): a few rows
 * summed instead of every card counted. A keyword search still counts its matches.
 */
async function keptCount(query: { status?: Status; batchId?: number }): Promise<number> {
  const conditions = [
    query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null,
    query.batchId ? Prisma.sql`"batchId" = ${query.batchId}` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  const [kept] = await db().$queryRaw<{ total: number }[]>`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "CardCount" ${where}`
  return kept?.total ?? 0
}

/**
 * Every card a user holds or has redeemed, newest first (GET /api/my-cards → data: a
 * list, unpaged, docs/PRODUCT.md §7.3). All of them: a cut list would hide cards the user
 * owns and that answer has no room to say so. Rows are small (masked key, times) and both
 * conditions are indexed, so even thousands of cards make one quick answer.
 */
export async function listMyCards(userId: string): Promise<MyCard[]> {
  const rows = await db().card.findMany({
    where: { OR: [{ holderId: userId }, { usedById: userId }] },
    select: MY_CARD_SELECT,
    orderBy: { id: 'desc' },
  })
  return rows.map(toMyCard)
}

export type CardBatchRow = { id: number; note: string | null; points: number; count: number; expiresAt: Date | null; createdAt: Date }

/** Recent import batches, newest first, for the console's batch filter. */
export async function listCardBatches(limit = 100): Promise<CardBatchRow[]> {
  return db().cardBatch.findMany({
    select: { id: true, note: true, points: true, count: true, expiresAt: true, createdAt: true },
    orderBy: { id: 'desc' },
    take: limit,
  })
}

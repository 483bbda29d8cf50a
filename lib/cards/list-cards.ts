import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { Status } from '@/lib/generated/prisma/enums'
import { nearerEndWindow, pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { ADMIN_CARD_SELECT, MY_CARD_SELECT, toAdminCardRow, toMyCard, type AdminCardRow, type MyCard } from './card-views'

/** The admin card list, newest first: /admin/cards_mana (docs/PRODUCT.md §2.4). */
export async function listCards(query: TPageQuery & { status?: Status; keyword?: string; batchId?: number }): Promise<Page<AdminCardRow>> {
  const where: Prisma.CardWhereInput = {
    ...(query.status ? { status: query.status } : {}),
    ...(query.batchId ? { batchId: query.batchId } : {}),
    ...(query.keyword ? { cardNo: { contains: escapeLike(query.keyword.toUpperCase()) } } : {}),
  }
  const total = await db().card.count({ where })
  const window = nearerEndWindow(pageArgs(query), total)
  if (!window) return { list: [], total }
  // The page's ids come from the index alone, walked from whichever end is nearer (so the
  // last page costs what the first does); then only those rows are loaded.
  const ids = await db().card.findMany({ where, select: { id: true }, orderBy: { id: window.order }, skip: window.skip, take: window.take })
  const rows = await db().card.findMany({ where: { id: { in: ids.map((c) => c.id) } }, select: ADMIN_CARD_SELECT, orderBy: { id: 'desc' } })
  return { list: rows.map(toAdminCardRow), total }
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

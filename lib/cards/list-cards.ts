import 'server-only'
import { db, dbPool } from '@/lib/db'
import { isoText, jsonObject, jsonObjectOrNull, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Status } from '@/lib/generated/prisma/enums'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { type AdminCardRow, type MyCard } from './card-views'

/** The admin card list, newest first: /admin/cards_mana (docs/PRODUCT.md §2.4). */
export async function listCards(query: TPageQuery & { status?: Status; keyword?: string; batchId?: number }): Promise<Page<Listed<AdminCardRow>>> {
  const keyword = query.keyword ? `%${escapeLike(query.keyword.toUpperCase())}%` : undefined
  const kept = [query.status ? Prisma.sql`"status" = ${query.status}::"Status"` : null, query.batchId ? Prisma.sql`"batchId" = ${query.batchId}` : null].filter(
    (c) => c !== null,
  )
  const conditions = [...kept, keyword ? Prisma.sql`"cardNo" LIKE ${keyword}` : null].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  // The exact total: by status and batch, the counters the triggers on "Card" keep in step with
  // every write (migration list_counts); a keyword search counts its matches.
  const total = keyword
    ? Prisma.sql`SELECT count(*)::int AS "total" FROM "Card" ${where}`
    : Prisma.sql`SELECT coalesce(sum("n"), 0)::int AS "total" FROM "CardCount" ${kept.length ? Prisma.sql`WHERE ${Prisma.join(kept, ' AND ')}` : Prisma.empty}`
  const { skip, take } = pageArgs(query)
  // One statement: the total, then the page's ids from the index alone, walked from whichever
  // end is nearer (so the last page costs what the first does): pages in the first half
  // newest first with OFFSET skip, the others oldest first from the far end. The total decides
  // which branch runs (the other is a one-time filter that is never executed), then those rows
  // are joined to their people and batch. An empty page is one row of the total. The offset is a
  // bigint: as an int, a page far past the end would be out of range (a 500).
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    WITH k AS (${total})
    SELECT k."total", ${cardRowJson} AS "row"
    FROM k
    LEFT JOIN LATERAL (
      SELECT "id" FROM (SELECT "id" FROM "Card" ${where} ORDER BY "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}::bigint) newest
      WHERE ${skip}::bigint * 2 <= k."total"
      UNION ALL
      SELECT "id" FROM (
        SELECT "id" FROM (SELECT "id" FROM "Card" ${where} ORDER BY "id" ASC LIMIT ${pageLimit(take)} OFFSET greatest(k."total" - ${skip}::bigint - ${take}, 0)) far
        LIMIT greatest(least(${take}, k."total" - ${skip}::bigint), 0)
      ) oldest
      WHERE ${skip}::bigint * 2 > k."total"
    ) p ON true
    LEFT JOIN LATERAL (SELECT * FROM "Card" WHERE "id" = p."id" LIMIT 1) c ON true
    LEFT JOIN LATERAL (SELECT "note" FROM "CardBatch" WHERE "id" = c."batchId" LIMIT 1) b ON true
    LEFT JOIN LATERAL (SELECT "name" FROM "User" WHERE "id" = c."usedById" LIMIT 1) u ON true
    LEFT JOIN LATERAL (SELECT "name" FROM "User" WHERE "id" = c."holderId" LIMIT 1) h ON true
    ORDER BY c."id" DESC`,
    dbPool('generic'),
  )
  return jsonPage<Listed<AdminCardRow>>(rows)
}

/** Key by key in the order toAdminCardRow gives them. */
const cardRowJson = jsonRowText<Listed<AdminCardRow>>(Prisma.sql`c."id" IS NOT NULL`, {
  id: Prisma.sql`c."id"`,
  cardNo: Prisma.sql`c."cardNo"`,
  points: Prisma.sql`c."points"`,
  status: Prisma.sql`c."status"`,
  failReason: Prisma.sql`c."failReason"`,
  usedAt: isoText(Prisma.sql`c."usedAt"`),
  disabledAt: isoText(Prisma.sql`c."disabledAt"`),
  expiresAt: isoText(Prisma.sql`c."expiresAt"`),
  exportedAt: isoText(Prisma.sql`c."exportedAt"`),
  createdAt: isoText(Prisma.sql`c."createdAt"`),
  holder: jsonObjectOrNull(Prisma.sql`c."holderId" IS NOT NULL`, { id: Prisma.sql`c."holderId"`, name: Prisma.sql`coalesce(h."name", '')` }),
  batch: jsonObject({ id: Prisma.sql`c."batchId"`, note: Prisma.sql`b."note"` }),
  cardKey: Prisma.sql`c."keyMask"`,
  claimant: jsonObjectOrNull(Prisma.sql`c."usedById" IS NOT NULL`, { id: Prisma.sql`c."usedById"`, name: Prisma.sql`coalesce(u."name", '')` }),
})

/**
 * Every card a user holds or has redeemed, newest first (GET /api/my-cards → data: a
 * list, unpaged, docs/PRODUCT.md §7.3). All of them: a cut list would hide cards the user
 * owns and that answer has no room to say so. Rows are small (masked key, times) and both
 * conditions are indexed, so even thousands of cards make one quick answer.
 */
export async function listMyCards(userId: string): Promise<Listed<MyCard>[]> {
  // The columns in the order toMyCard's output has them, so each row is already the answer's object.
  return readRows<Listed<MyCard>[]>(
    Prisma.sql`
    SELECT "id", "cardNo", "points", "createdAt", "usedAt", "expiresAt", "keyMask" AS "cardKey", "disabledAt" IS NOT NULL AS "isDisabled"
    FROM "Card" WHERE "holderId" = ${userId} OR "usedById" = ${userId}
    ORDER BY "id" DESC`,
  )
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

import 'server-only'
import { db, dbPool } from '@/lib/db'
import { jsonObject, type JsonFields } from '@/lib/db/json-rows'
import { pageLimit, readRows } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, unauthorized } from '@/lib/http/app-error'
import { jsonList } from '@/lib/http/json-list'
import { cachedAnswer } from '@/lib/signals/answer-cache'
import { decodeCursor, encodeCursor, type WallCursor } from './cursor'
import type { TWallQuery, WallItem, WallPage } from './schemas'
import { toWallItem, wallItemSelect } from './wall-views'

/** The page's rows: each work as JSON, whether it is a clip, and the cursor's column (listedAt as readRows' ISO text for sort=new, or likes). */
type ListRow = { id: string; key: string | number; clip: boolean; row: string }

/** A page as JSON texts of its works, with `liked` (for the favorites) or without. */
type WallPageText = { rows: Pick<ListRow, 'id' | 'clip' | 'row'>[]; nextCursor: string | null }

/**
 * The wall: approved works, newest on the wall first (sort=new) or most liked (sort=hot),
 * a page after the cursor's row. Keyset on (listedAt, id) or (likes, id), compared as a row
 * so PostgreSQL starts the index scan at the cursor whatever its depth: works put on the
 * wall meanwhile come before the cursor and never shift a later page. The admin's
 * recommended works (featured) come in the admin's order, one page only; `favorites` keeps
 * to the caller's 我的收藏. A page is the same for everyone but for `liked`: each web process
 * keeps it until a work on the wall or an author changes (lib/signals/answer-cache.ts), and
 * a signed-in caller's likes among its works are looked up and written into it.
 */
export async function listWall(viewerId: string | null, query: TWallQuery): Promise<WallPage> {
  if (query.featured) {
    const rows = await db().wallWork.findMany({
      where: { status: 'APPROVED', featured: true, ...(query.type ? { modelType: query.type } : {}) },
      select: wallItemSelect(viewerId),
      orderBy: [{ sort: 'desc' }, { listedAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
    })
    return { list: rows.map((r) => toWallItem(r, viewerId)), nextCursor: null }
  }
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort) : null
  if (query.cursor && !cursor) throw badRequest('cursor 无效，请从第一页重新加载')
  if (query.favorites) {
    if (!viewerId) throw unauthorized()
    const { rows, nextCursor } = await readWallPage(query, cursor, viewerId)
    return wallPage(
      rows.map((r) => r.row),
      nextCursor,
    )
  }
  // The cursor as read, not as sent: base64url has more than one spelling of the same cursor.
  const key = JSON.stringify([query.sort, query.type ?? null, query.limit, cursor && [cursor.key, cursor.id], query.q || null])
  const page = await cachedAnswer('wall', key, () => readWallPage(query, cursor, null), weighPage)
  return wallPage(viewerId ? await withLikes(page.rows, viewerId) : page.rows.map((r) => r.row), page.nextCursor)
}

const weighPage = (page: WallPageText) => page.rows.reduce((sum, r) => sum + r.row.length, 0)

const wallPage = (texts: string[], nextCursor: string | null) => jsonList<WallItem, { nextCursor: string | null }>(texts, { nextCursor })

/**
 * The page from the database. With `favoritesOf`, only that user's favorites, each with
 * `liked` (theirs); without, every approved work, without `liked`.
 */
async function readWallPage(query: TWallQuery, cursor: WallCursor | null, favoritesOf: string | null): Promise<WallPageText> {
  const hot = query.sort === 'hot'
  const key = hot ? Prisma.sql`"likes"` : Prisma.sql`"listedAt"`
  const after = cursor ? Prisma.sql`AND (w.${key}, w."id") < (${hot ? cursor.key : new Date(cursor.key)}, ${cursor.id})` : Prisma.empty
  const type = query.type ? Prisma.sql`AND w."modelType" = ${query.type}::"ModelType"` : Prisma.empty
  const favorites = favoritesOf
    ? Prisma.sql`AND EXISTS (SELECT 1 FROM "WallFavorite" f WHERE f."workId" = w."id" AND f."userId" = ${favoritesOf})`
    : Prisma.empty
  const words = query.q ? Prisma.sql`AND w."prompt" ILIKE ${`%${escapeLike(query.q)}%`}` : Prisma.empty
  const liked = favoritesOf ? Prisma.sql`EXISTS (SELECT 1 FROM "WallLike" l WHERE l."workId" = w."id" AND l."userId" = ${favoritesOf})` : null
  // One statement: the page and its authors, each work written as JSON.
  // The page is cut inside (LIMIT on the index order) before the join: joined first, the planner
  // misjudges the row comparison's selectivity and sorts every row after the cursor.
  const rows = await readRows<ListRow[]>(
    Prisma.sql`
    SELECT w."id", w.${key} AS "key", w."videoUrl" IS NOT NULL AS "clip", ${wallItemJson(liked)} AS "row"
    FROM (
      SELECT * FROM "WallWork" w
      WHERE w."status" = 'APPROVED' ${type} ${words} ${favorites} ${after}
      ORDER BY w.${key} DESC, w."id" DESC
      LIMIT ${pageLimit(query.limit + 1)}
    ) w CROSS JOIN LATERAL (SELECT "name", "avatar" FROM "User" WHERE "id" = w."userId" LIMIT 1) u
    ORDER BY w.${key} DESC, w."id" DESC`,
    dbPool('generic'),
  )
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const nextCursor =
    rows.length > query.limit && last ? encodeCursor({ key: typeof last.key === 'string' ? Date.parse(last.key) : Number(last.key), id: last.id }) : null
  return { rows: page.map(({ id, clip, row }) => ({ id, clip, row })), nextCursor }
}

/** The page's works with `liked` written in where toWallItem puts it: after `featured`, before a clip's `video`. */
async function withLikes(rows: WallPageText['rows'], viewerId: string): Promise<string[]> {
  if (rows.length === 0) return []
  const found = await readRows<{ workId: string }[]>(
    Prisma.sql`SELECT "workId" FROM "WallLike" WHERE "userId" = ${viewerId} AND "workId" = ANY(${rows.map((r) => r.id)}::text[])`,
    dbPool('generic'),
  )
  const liked = new Set(found.map((r) => r.workId))
  return rows.map(({ id, clip, row }) => {
    const at = clip ? row.lastIndexOf(',"video":{') : row.length - 1
    return `${row.slice(0, at)},"liked":${liked.has(id)}${row.slice(at)}`
  })
}

/**
 * A work as toWallItem shows it, key by key: `liked` only for a signed-in caller (`liked` is
 * then their EXISTS), `video` only for a clip.
 */
function wallItemJson(liked: Prisma.Sql | null): Prisma.Sql {
  const fields: JsonFields<WallItem> = {
    id: Prisma.sql`w."id"`,
    taskId: Prisma.sql`w."taskId"`,
    type: Prisma.sql`w."modelType"`,
    thumbUrl: Prisma.sql`w."thumbUrl"`,
    imageUrl: Prisma.sql`w."imageUrl"`,
    width: Prisma.sql`w."width"`,
    height: Prisma.sql`w."height"`,
    prompt: Prisma.sql`w."prompt"`,
    model: Prisma.sql`w."modelName"`,
    author: jsonObject({ name: Prisma.sql`u."name"`, avatar: Prisma.sql`u."avatar"` }),
    likes: Prisma.sql`w."likes"`,
    featured: Prisma.sql`w."featured"`,
    ...(liked ? { liked } : {}),
  }
  const clip = jsonObject<WallItem>({ ...fields, video: jsonObject({ url: Prisma.sql`w."videoUrl"`, durationSec: Prisma.sql`w."durationSec"` }) })
  return Prisma.sql`(CASE WHEN w."videoUrl" IS NULL THEN ${jsonObject(fields)} ELSE ${clip} END)::text`
}

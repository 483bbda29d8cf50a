import 'server-only'
import { db, dbPool } from '@/lib/db'
import { jsonObject, type JsonFields } from '@/lib/db/json-rows'
import { pageLimit, readRows } from '@/lib/db/read-rows'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, unauthorized } from '@/lib/http/app-error'
import { jsonList } from '@/lib/http/json-list'
import { decodeCursor, encodeCursor } from './cursor'
import type { TWallQuery, WallItem, WallPage } from './schemas'
import { toWallItem, wallItemSelect } from './wall-views'

/** The page's rows: each work as JSON, and the cursor's column (listedAt as readRows' ISO text for sort=new, or likes). */
type ListRow = { id: string; key: string | number; row: string }

/**
 * The wall: approved works, newest on the wall first (sort=new) or most liked (sort=hot),
 * a page after the cursor's row. Keyset on (listedAt, id) or (likes, id), compared as a row
 * so PostgreSQL starts the index scan at the cursor whatever its depth: works put on the
 * wall meanwhile come before the cursor and never shift a later page. The admin's
 * recommended works (featured) come in the admin's order, one page only; `favorites` keeps
 * to the caller's 我的收藏.
 */
export async function listWall(viewerId: string | null, query: TWallQuery): Promise<WallPage> {
  const select = wallItemSelect(viewerId)
  if (query.featured) {
    const rows = await db().wallWork.findMany({
      where: { status: 'APPROVED', featured: true, ...(query.type ? { modelType: query.type } : {}) },
      select,
      orderBy: [{ sort: 'desc' }, { listedAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
    })
    return { list: rows.map((r) => toWallItem(r, viewerId)), nextCursor: null }
  }
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  if (query.cursor && !cursor) throw badRequest('cursor 无效，请从第一页重新加载')
  const hot = query.sort === 'hot'
  const key = hot ? Prisma.sql`"likes"` : Prisma.sql`"listedAt"`
  const after = cursor ? Prisma.sql`AND (w.${key}, w."id") < (${hot ? cursor.key : new Date(cursor.key)}, ${cursor.id})` : Prisma.empty
  const type = query.type ? Prisma.sql`AND w."modelType" = ${query.type}::"ModelType"` : Prisma.empty
  if (query.favorites && !viewerId) throw unauthorized()
  const favorites =
    query.favorites && viewerId ? Prisma.sql`AND EXISTS (SELECT 1 FROM "WallFavorite" f WHERE f."workId" = w."id" AND f."userId" = ${viewerId})` : Prisma.empty
  const words = query.q ? Prisma.sql`AND w."prompt" ILIKE ${`%${escapeLike(query.q)}%`}` : Prisma.empty
  const liked = viewerId ? Prisma.sql`EXISTS (SELECT 1 FROM "WallLike" l WHERE l."workId" = w."id" AND l."userId" = ${viewerId})` : null
  // One statement: the page, its authors and the caller's likes, each work written as JSON.
  // The page is cut inside (LIMIT on the index order) before the join: joined first, the planner
  // misjudges the row comparison's selectivity and sorts every row after the cursor.
  const rows = await readRows<ListRow[]>(
    Prisma.sql`
    SELECT w."id", w.${key} AS "key", ${wallItemJson(liked)} AS "row"
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
  return jsonList<WallItem, { nextCursor: string | null }>(
    page.map((r) => r.row),
    { nextCursor },
  )
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

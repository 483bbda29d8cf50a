import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, unauthorized } from '@/lib/http/app-error'
import { decodeCursor, encodeCursor } from './cursor'
import type { TWallQuery, WallPage } from './schemas'
import { toWallItem, wallItemSelect } from './wall-views'

type KeyRow = { id: string; key: Date | number }

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
  const after = cursor ? Prisma.sql`AND (${key}, "id") < (${hot ? cursor.key : new Date(cursor.key)}, ${cursor.id})` : Prisma.empty
  const type = query.type ? Prisma.sql`AND "modelType" = ${query.type}::"ModelType"` : Prisma.empty
  if (query.favorites && !viewerId) throw unauthorized()
  const favorites =
    query.favorites && viewerId
      ? Prisma.sql`AND EXISTS (SELECT 1 FROM "WallFavorite" f WHERE f."workId" = "WallWork"."id" AND f."userId" = ${viewerId})`
      : Prisma.empty
  const words = query.q ? Prisma.sql`AND "prompt" ILIKE ${`%${escapeLike(query.q)}%`}` : Prisma.empty
  const keys = await db().$queryRaw<KeyRow[]>`
    SELECT "id", ${key} AS "key" FROM "WallWork"
    WHERE "status" = 'APPROVED' ${type} ${words} ${favorites} ${after}
    ORDER BY ${key} DESC, "id" DESC
    LIMIT ${query.limit + 1}`
  const page = keys.slice(0, query.limit)
  const rows = page.length ? await db().wallWork.findMany({ where: { id: { in: page.map((k) => k.id) } }, select }) : []
  const byId = new Map(rows.map((r) => [r.id, r]))
  const last = page.at(-1)
  const nextCursor =
    keys.length > query.limit && last ? encodeCursor({ key: last.key instanceof Date ? last.key.getTime() : Number(last.key), id: last.id }) : null
  return {
    list: page.flatMap((k) => {
      const row = byId.get(k.id)
      return row ? [toWallItem(row, viewerId)] : []
    }),
    nextCursor,
  }
}

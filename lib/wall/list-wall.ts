import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import type { Prisma } from '@/lib/generated/prisma/client'
import { badRequest } from '@/lib/http/app-error'
import { decodeCursor, encodeCursor } from './cursor'
import type { TWallQuery, WallPage } from './schemas'
import { toWallItem, wallItemSelect } from './wall-views'

/**
 * The wall: approved works, newest on the wall first (sort=new) or most liked (sort=hot),
 * a page after the cursor's row. Keyset on (listedAt, id) or (likes, id): works put on the
 * wall meanwhile come before the cursor and never shift a later page. The admin's
 * recommended works (featured) come in the admin's order, one page only.
 */
export async function listWall(viewerId: string | null, query: TWallQuery): Promise<WallPage> {
  const where: Prisma.WallWorkWhereInput = {
    status: 'APPROVED',
    ...(query.type ? { modelType: query.type } : {}),
    ...(query.q ? { prompt: { contains: escapeLike(query.q), mode: 'insensitive' } } : {}),
  }
  const select = wallItemSelect(viewerId)
  if (query.featured) {
    const rows = await db().wallWork.findMany({
      where: { ...where, featured: true },
      select,
      orderBy: [{ sort: 'desc' }, { listedAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
    })
    return { list: rows.map((r) => toWallItem(r, viewerId)), nextCursor: null }
  }
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  if (query.cursor && !cursor) throw badRequest('cursor 无效，请从第一页重新加载')
  const hot = query.sort === 'hot'
  const after: Prisma.WallWorkWhereInput | null = cursor
    ? hot
      ? { OR: [{ likes: { lt: cursor.key } }, { likes: cursor.key, id: { lt: cursor.id } }] }
      : { OR: [{ listedAt: { lt: new Date(cursor.key) } }, { listedAt: new Date(cursor.key), id: { lt: cursor.id } }] }
    : null
  const rows = await db().wallWork.findMany({
    where: after ? { AND: [where, after] } : where,
    select,
    orderBy: hot ? [{ likes: 'desc' }, { id: 'desc' }] : [{ listedAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  })
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const nextCursor = rows.length > query.limit && last ? encodeCursor({ key: hot ? last.likes : (last.listedAt?.getTime() ?? 0), id: last.id }) : null
  return { list: page.map((r) => toWallItem(r, viewerId)), nextCursor }
}

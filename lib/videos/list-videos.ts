import 'server-only'
import { db, dbPool } from '@/lib/db'
import { readRows } from '@/lib/db/read-rows'
import type { SessionUser } from '@/lib/auth/session'
import { notFound, unauthorized, forbidden } from '@/lib/http/app-error'
import { Prisma } from '@/lib/generated/prisma/client'
import type { TVideoListQuery, VideoDetail, VideoListItem } from './schemas'
import { toListItem, VIDEO_ROW, type ListItemColumns, type VideoRow } from './video-views'
import { videoLink } from './video-link'

/** Published items, newest first, a cursor page (docs/PRODUCT.md §18). */
export async function listVideos(user: SessionUser | null, q: TVideoListQuery): Promise<{ list: VideoListItem[]; nextCursor: string | null }> {
  const where: Prisma.VideoWhereInput = {
    published: true,
    ...(q.kind ? { kind: q.kind === 'paid' ? 'PAID' : 'FREE' } : {}),
    ...(q.tag ? { tags: { has: q.tag } } : {}),
    ...(q.keyword
      ? {
          OR: [
            { title: { contains: q.keyword, mode: 'insensitive' } },
            { description: { contains: q.keyword, mode: 'insensitive' } },
            { tags: { has: q.keyword } },
          ],
        }
      : {}),
  }
  const rows = await db().video.findMany({
    where,
    select: VIDEO_ROW,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.pageSize + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
  })
  const page = rows.slice(0, q.pageSize)
  const bought = user
    ? await boughtAmong(
        user.id,
        page.map((v) => v.id),
      )
    : null
  return {
    list: page.map((v) => toListItem(v, bought ? v.kind === 'PAID' && bought.has(v.id) : undefined)),
    nextCursor: rows.length > q.pageSize ? (page.at(-1)?.id ?? null) : null,
  }
}

/**
 * One published item, or an unpublished one the caller bought (buyers keep their items, 已购 opens
 * them); a signed player link when the caller may watch the original.
 */
export async function getVideo(user: SessionUser | null, id: string): Promise<VideoDetail> {
  const v = await db().video.findUnique({ where: { id }, select: VIDEO_ROW })
  const owned = user && v && (v.kind === 'PAID' || !v.published) ? (await boughtAmong(user.id, [id])).has(id) : false
  if (!v || (!v.published && !owned)) throw notFound('视频不存在或已下架')
  const bought = user && v.kind === 'PAID' ? owned : undefined
  const mayWatch = user !== null && (v.kind === 'FREE' || bought === true)
  return {
    ...toListItem(v, bought),
    description: v.description,
    size: Number(v.size),
    createdAt: v.createdAt.toISOString(),
    ...(mayWatch ? { playUrl: await videoLink(v, user.id, null), downloadUrl: await videoLink(v, user.id, downloadFileName(v)) } : {}),
  }
}

/**
 * The caller's bought items, newest purchase first (kept even when the operator unpublishes one);
 * the items of one order share their purchase time and keep one order between reads by id.
 * One statement: the purchases on the ("userId", "videoId") index, then each one's item by key.
 */
export async function listMyVideos(userId: string): Promise<{ list: (VideoListItem & { boughtAt: string })[] }> {
  const rows = await readRows<(ListItemColumns & { boughtAt: string })[]>(
    Prisma.sql`
    SELECT v."id", v."title", v."kind", v."price", v."durationSec", v."width", v."height", v."posterKey", v."previewKey", v."tags", p."createdAt" AS "boughtAt"
    FROM (SELECT "id", "videoId", "createdAt" FROM "VideoPurchase" WHERE "userId" = ${userId}) p
    JOIN LATERAL (SELECT * FROM "Video" WHERE "id" = p."videoId" LIMIT 1) v ON true
    ORDER BY p."createdAt" DESC, p."id" DESC`,
    dbPool('generic'),
  )
  // boughtAt is already the ISO text (readRows); the item's URLs are made here.
  return { list: rows.map(({ boughtAt, ...video }) => ({ ...toListItem(video, true), boughtAt })) }
}

/**
 * GET /api/videos/{id}/download: the signed link to the original for a free item (any signed-in
 * user) or a bought one; 401 signed out, 403 otherwise.
 */
export async function downloadLinkFor(user: SessionUser | null, id: string): Promise<string> {
  if (!user) throw unauthorized('请先登录后下载')
  const v = await findOwnedVideo(user.id, id)
  return videoLink(v, user.id, downloadFileName(v))
}

async function findOwnedVideo(userId: string, id: string): Promise<VideoRow> {
  const v = await db().video.findUnique({ where: { id }, select: VIDEO_ROW })
  const bought = v ? (await boughtAmong(userId, [id])).has(id) : false
  if (!v || (!v.published && !bought)) throw notFound('视频不存在或已下架')
  if (v.kind === 'PAID' && !bought) throw forbidden('购买后才能下载这个视频')
  return v
}

const downloadFileName = (v: VideoRow) => `video-${v.id}.${v.fileKey.split('.').at(-1) ?? 'mp4'}`

async function boughtAmong(userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db().videoPurchase.findMany({ where: { userId, videoId: { in: ids } }, select: { videoId: true } })
  return new Set(rows.map((r) => r.videoId))
}

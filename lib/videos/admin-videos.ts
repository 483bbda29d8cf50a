import 'server-only'
import { access, open, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { db, dbPool } from '@/lib/db'
import { isoText, jsonObject } from '@/lib/db/json-rows'
import { escapeLike } from '@/lib/db/like'
import { pageLimit, readRows } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { frameAt, probeVideo, runFfmpeg, withScratch } from '@/lib/generation/video-file'
import { badRequest, notFound } from '@/lib/http/app-error'
import { payloadTooLarge, readBodyWithin } from '@/lib/http/body-limit'
import { jsonList } from '@/lib/http/json-list'
import { withoutNul } from '@/lib/http/no-nul'
import { pageArgs, type TPageQuery } from '@/lib/http/pagination'
import { presignedGetUrl, readS3Head } from '@/lib/storage/s3-files'
import { newKey, putFile, putFileFromPath, removeFile } from '@/lib/storage/storage'
import { reencodeImage, sniffImageType } from '@/lib/uploads/image-upload'
import { dropUpload, finishedUpload, maxVideoBytes } from './chunked-upload'
import { ZVideoFields, type AdminVideo, type TVideoPatch } from './schemas'
import { sniffVideoType } from './video-type'
import { toListItem, VIDEO_ROW, type VideoRow } from './video-views'

/** A whole video in one multipart request is for small files; larger ones go through chunks. */
export const DIRECT_UPLOAD_BYTES = 200 * 1024 * 1024
export const CREATE_BODY_LIMIT = DIRECT_UPLOAD_BYTES + 64 * 1024
/** The preview clip made from the original when the operator uploads none: its first seconds, small. */
/** A made preview is the start of the original: 8 seconds at most, a third of a short clip (never the whole of it). */
const PREVIEW_SECONDS = 8
const previewSeconds = (durationSec: number) => Math.min(PREVIEW_SECONDS, Math.max(0.5, durationSec / 3))

/**
 * POST /api/admin/videos (multipart): the original (`file`, or `uploadId` of a finished chunked
 * upload), `poster` (an image) or `posterSecond`, `preview` (a clip; made from the original when
 * absent), and the fields. Duration and size are read from the file; the type from its bytes.
 */
export async function createVideo(actor: SessionUser, ip: string, req: Request): Promise<AdminVideo> {
  const form = await readForm(req)
  const fields = ZVideoFields.parse(withoutNul(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))))
  if (fields.kind === 'paid' && fields.price <= 0) throw badRequest('付费视频请设置大于 0 的价格')
  const uploadId = form.get('uploadId')
  const file = form.get('file')
  const poster = form.get('poster')
  const preview = form.get('preview')
  const posterSecond = Number(form.get('posterSecond') ?? 1)
  if (!Number.isFinite(posterSecond) || posterSecond < 0) throw badRequest('封面时间点须为不小于 0 的秒数')

  return withScratch(async (dir) => {
    // `original` is what FFmpeg reads: a file here, or (uploaded straight to S3) a presigned GET.
    let original: string
    let inBucket: { key: string; head: Buffer; size: number } | null = null
    if (typeof uploadId === 'string' && uploadId) {
      const done = await finishedUpload(actor.id, uploadId)
      if ('file' in done) original = done.file
      else {
        const found = await readS3Head(done.key, 64)
        if (!found) throw badRequest('对象存储中没有找到上传的文件，请重新上传')
        if (found.size !== done.size) throw badRequest('上传的文件大小不对，请重新上传')
        inBucket = { key: done.key, ...found }
        original = await presignedGetUrl(done.key, 3600, null)
      }
    } else if (file instanceof Blob && file.size > 0) {
      if (file.size > (await maxVideoBytes())) throw payloadTooLarge('视频超过了站点设置的大小上限')
      original = path.join(dir, 'original')
      await writeFile(original, Buffer.from(await file.arrayBuffer()))
    } else throw badRequest('请选择要上传的视频')

    const container = sniffVideoType(inBucket ? inBucket.head : await firstBytes(original))
    if (!container) throw badRequest('只支持 MP4、MOV 或 WebM 视频')
    const facts = await probeVideo(original)
    if (!facts.hasVideo || !facts.durationSec || !facts.width || !facts.height) throw badRequest('无法读取视频的时长和分辨率，请检查文件')
    const size = inBucket ? inBucket.size : (await stat(original)).size

    let posterBytes: Buffer
    if (poster instanceof Blob && poster.size > 0) {
      const bytes = Buffer.from(await poster.arrayBuffer())
      if (!sniffImageType(bytes)) throw badRequest('封面只支持 JPG、PNG、WebP 或 GIF 图片')
      posterBytes = bytes
    } else posterBytes = await frameAt(original, Math.min(posterSecond, Math.max(0, facts.durationSec - 0.1)))
    const posterWebp = await reencodeImage(posterBytes, { width: 1280, height: 1280, fit: 'inside' })

    let previewFile: string
    if (preview instanceof Blob && preview.size > 0) {
      previewFile = path.join(dir, 'preview-upload')
      await writeFile(previewFile, Buffer.from(await preview.arrayBuffer()))
      if (!sniffVideoType(await firstBytes(previewFile))) throw badRequest('预览片段只支持 MP4、MOV 或 WebM 视频')
    } else previewFile = await makePreview(original, dir, previewSeconds(facts.durationSec))
    const previewWebm = (await firstBytes(previewFile))[0] === 0x1a

    const fileKey = inBucket?.key ?? newKey('private/videos', container)
    const posterKey = newKey('video-posters', 'webp')
    const previewKey = newKey('video-previews', previewWebm ? 'webm' : 'mp4')
    const upload = typeof uploadId === 'string' && uploadId ? uploadId : null
    let video: VideoRow
    try {
      await putFile(posterKey, posterWebp)
      await putFileFromPath(previewKey, previewFile)
      if (!inBucket) await putFileFromPath(fileKey, original)
      video = await db().$transaction(async (tx) => {
        const row = await tx.video.create({
          data: {
            title: fields.title,
            description: fields.description,
            tags: fields.tags,
            kind: fields.kind === 'paid' ? 'PAID' : 'FREE',
            price: fields.kind === 'paid' ? fields.price : 0,
            published: fields.published,
            durationSec: facts.durationSec!,
            width: facts.width!,
            height: facts.height!,
            size: BigInt(size),
            fileKey,
            posterKey,
            previewKey,
          },
          select: VIDEO_ROW,
        })
        // With the row, so an upload pruned later can never take a bucket object a video uses;
        // and a bucket object goes to one video only (another create, or the prune, took it).
        const taken = upload ? (await tx.videoUpload.deleteMany({ where: { id: upload } })).count : 1
        if (inBucket && taken !== 1) throw badRequest('该上传已被使用或已过期，请重新上传')
        await recordAudit(tx, actor, ip, {
          action: 'video.create',
          targetType: 'Video',
          targetId: row.id,
          after: { title: row.title, kind: row.kind, price: row.price },
        })
        return row
      })
    } catch (error) {
      // No file may stay without a row naming it. An object the browser put in the bucket is
      // its upload's and stays for another try, as does a chunked upload's file not yet moved
      // into the store (a poster that could not be stored); once moved, it is removed here and
      // that upload goes too.
      await removeStored([posterKey, previewKey, ...(inBucket ? [] : [fileKey])])
      if (upload && !inBucket && !(await exists(original))) await dropUpload(upload).catch(() => undefined)
      throw error
    }
    if (upload) await dropUpload(upload)
    return toAdmin(video, 0, 0)
  })
}

export async function updateVideo(actor: SessionUser, ip: string, id: string, patch: TVideoPatch): Promise<AdminVideo> {
  return db().$transaction(async (tx) => {
    // Edits of one item take turns: the 上架 switch writes the kind and price it read, so it
    // must read them after an edit to 付费 in another tab has committed, not before.
    await tx.$queryRaw`SELECT 1 FROM "Video" WHERE "id" = ${id} FOR UPDATE`
    const before = await tx.video.findUnique({ where: { id }, select: VIDEO_ROW })
    if (!before) throw notFound('视频不存在')
    const kind = patch.kind ? (patch.kind === 'paid' ? 'PAID' : 'FREE') : before.kind
    const price = kind === 'PAID' ? (patch.price ?? before.price) : 0
    if (kind === 'PAID' && price <= 0) throw badRequest('付费视频请设置大于 0 的价格')
    const row = await tx.video.update({
      where: { id },
      data: { title: patch.title, description: patch.description, tags: patch.tags, published: patch.published, kind, price },
      select: VIDEO_ROW,
    })
    await recordAudit(tx, actor, ip, {
      action: 'video.update',
      targetType: 'Video',
      targetId: id,
      before: { title: before.title, kind: before.kind, price: before.price, published: before.published },
      after: { title: row.title, kind: row.kind, price: row.price, published: row.published },
    })
    const stats = await statsOf([id])
    return toAdmin(row, stats.get(id)?.count ?? 0, stats.get(id)?.revenue ?? 0)
  })
}

/**
 * A bought item is only unpublished (its buyers keep it), and so is one any order names: a
 * pending order, or one closed and paid late or confirmed by an admin, is still fulfilled with
 * it, and a purchase of a deleted item would fail that settlement for good (the money taken,
 * nothing given). One nobody bought or ordered is deleted, and its stored files with it.
 */
export async function deleteVideo(actor: SessionUser, ip: string, id: string): Promise<{ deleted: boolean }> {
  const { deleted, keys } = await db().$transaction(async (tx) => {
    const video = await tx.video.findUnique({
      where: { id },
      select: { id: true, title: true, fileKey: true, posterKey: true, previewKey: true, _count: { select: { purchases: true } } },
    })
    if (!video) throw notFound('视频不存在')
    const ordered = await tx.order.findFirst({
      where: { type: { in: ['BUY_VIDEO_MATERIAL', 'BATCH_BUY_VIDEO_MATERIAL'] }, grant: { path: ['videoIds'], array_contains: [id] } },
      select: { id: true },
    })
    const deleted = video._count.purchases === 0 && !ordered
    if (deleted) await tx.video.delete({ where: { id } })
    else await tx.video.update({ where: { id }, data: { published: false } })
    await recordAudit(tx, actor, ip, {
      action: deleted ? 'video.delete' : 'video.unpublish',
      targetType: 'Video',
      targetId: id,
      before: { title: video.title },
    })
    return { deleted, keys: [video.fileKey, video.posterKey, video.previewKey] }
  })
  // Only once the deletion is committed: until then the row still names them.
  if (deleted) await removeStored(keys)
  return { deleted }
}

/** Removes stored files; one that cannot be removed is logged, not an error to the admin (the work it ends is done). */
async function removeStored(keys: Array<string | null>): Promise<void> {
  await Promise.all(
    keys
      .filter((key): key is string => key !== null)
      .map((key) => removeFile(key).catch((error: unknown) => console.warn(`[videos] could not remove the stored file ${key}:`, error))),
  )
}

export async function listAdminVideos(q: TPageQuery & { keyword?: string }): Promise<{ list: AdminVideo[]; total: number }> {
  const where = q.keyword ? { title: { contains: q.keyword, mode: 'insensitive' as const } } : {}
  const [rows, total] = await Promise.all([
    db().video.findMany({ where, select: VIDEO_ROW, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (q.page - 1) * q.pageSize, take: q.pageSize }),
    db().video.count({ where }),
  ])
  const stats = await statsOf(rows.map((r) => r.id))
  return { list: rows.map((r) => toAdmin(r, stats.get(r.id)?.count ?? 0, stats.get(r.id)?.revenue ?? 0)), total }
}

export type AdminVideoPurchase = {
  id: string
  price: number
  createdAt: string
  orderId: string
  user: { id: string; username: string }
  video: { id: string; title: string }
}
export type VideoRevenue = { videoId: string; title: string; purchases: number; revenue: number }

type PurchasesRow = { total: number; rows: string | null; perItem: VideoRevenue[] }

/**
 * GET /api/admin/video-purchases: the purchases (per user and item), newest first, and revenue
 * per item, in one statement of one row: the total; the page, cut before each row's user and
 * video are looked up by key, its rows written as JSON and joined in order; and the 50 items
 * that earned most (over every purchase, whatever the filters), with their titles.
 */
export async function listVideoPurchases(q: TPageQuery & { videoId?: string; user?: string }) {
  const conditions = [
    q.videoId ? Prisma.sql`"videoId" = ${q.videoId}` : null,
    q.user ? Prisma.sql`"userId" = ANY (ARRAY(SELECT "id" FROM "User" WHERE "id" = ${q.user} OR "username" LIKE ${`%${escapeLike(q.user)}%`}))` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  const { skip, take } = pageArgs(q)
  const [found] = await readRows<PurchasesRow[]>(
    Prisma.sql`
    SELECT k."total", r."rows", i."perItem"
    FROM (SELECT count(*)::int AS "total" FROM "VideoPurchase" ${where}) k,
    (
      SELECT string_agg(${purchaseRowJson}::text, ',' ORDER BY p."createdAt" DESC, p."id" DESC) AS "rows"
      FROM (SELECT * FROM "VideoPurchase" ${where} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${pageLimit(take)} OFFSET ${skip}) p
      LEFT JOIN LATERAL (SELECT "id", "username" FROM "User" WHERE "id" = p."userId" LIMIT 1) u ON true
      LEFT JOIN LATERAL (SELECT "id", "title" FROM "Video" WHERE "id" = p."videoId" LIMIT 1) v ON true
    ) r,
    (
      SELECT coalesce(json_agg(${revenueJson} ORDER BY g."revenue" DESC, g."videoId"), '[]'::json) AS "perItem"
      FROM (SELECT "videoId", count(*) AS "purchases", sum("price") AS "revenue" FROM "VideoPurchase" GROUP BY "videoId" ORDER BY sum("price") DESC, "videoId" LIMIT 50) g
      LEFT JOIN LATERAL (SELECT "title" FROM "Video" WHERE "id" = g."videoId" LIMIT 1) t ON true
    ) i`,
    dbPool('generic'),
  )
  return jsonList<AdminVideoPurchase, { total: number; perItem: VideoRevenue[] }>(found?.rows ? [found.rows] : [], {
    total: found?.total ?? 0,
    perItem: found?.perItem ?? [],
  })
}

/** Key by key in the order of the Prisma select it replaces. */
const purchaseRowJson = jsonObject<AdminVideoPurchase>({
  id: Prisma.sql`p."id"`,
  price: Prisma.sql`p."price"`,
  createdAt: isoText(Prisma.sql`p."createdAt"`),
  orderId: Prisma.sql`p."orderId"`,
  user: jsonObject({ id: Prisma.sql`u."id"`, username: Prisma.sql`u."username"` }),
  video: jsonObject({ id: Prisma.sql`v."id"`, title: Prisma.sql`v."title"` }),
})

const revenueJson = jsonObject<VideoRevenue>({
  videoId: Prisma.sql`g."videoId"`,
  title: Prisma.sql`coalesce(t."title", '')`,
  purchases: Prisma.sql`g."purchases"`,
  revenue: Prisma.sql`coalesce(g."revenue", 0)`,
})

async function statsOf(ids: string[]) {
  const rows = await db().videoPurchase.groupBy({ by: ['videoId'], where: { videoId: { in: ids } }, _count: { _all: true }, _sum: { price: true } })
  return new Map(rows.map((r) => [r.videoId, { count: r._count._all, revenue: r._sum.price ?? 0 }]))
}

function toAdmin(v: VideoRow, purchases: number, revenue: number): AdminVideo {
  return {
    ...toListItem(v),
    description: v.description,
    size: Number(v.size),
    createdAt: v.createdAt.toISOString(),
    published: v.published,
    purchases,
    revenue,
  }
}

async function readForm(req: Request): Promise<FormData> {
  const body = await readBodyWithin(req, CREATE_BODY_LIMIT)
  try {
    return await new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
      headers: { 'content-type': req.headers.get('content-type') ?? '' },
    }).formData()
  } catch {
    throw badRequest('请以 multipart/form-data 上传')
  }
}

async function firstBytes(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(64)
    const { bytesRead } = await handle.read(buffer, 0, 64, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  )

async function makePreview(original: string, dir: string, seconds: number): Promise<string> {
  const out = path.join(dir, 'preview.mp4')
  await runFfmpeg([
    ...['-v', 'error', '-y', '-t', seconds.toFixed(2), '-i', original, '-vf', 'scale=-2:360', '-an'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out],
  ])
  return out
}

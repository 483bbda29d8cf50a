import 'server-only'
import { mkdir, open, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { db } from '@/lib/db'
import { badRequest, notFound } from '@/lib/http/app-error'
import { payloadTooLarge } from '@/lib/http/body-limit'
import { getConfigValue } from '@/lib/site-config/store'
import { env } from '@/lib/env'
import { presignedPutUrl, removeS3 } from '@/lib/storage/s3-files'
import { newKey } from '@/lib/storage/storage'

// Chunked uploads of video originals (docs/PROTOCOLS.md §15): init with the size →
// PUT each chunk with its index (every chunk exactly CHUNK_BYTES but the last) → the create
// call names the upload id. The parts go to DATA_DIR/video-uploads/<id>.part at their offset,
// so chunks may come in any order and a failed one is simply sent again. With S3 the init
// answers a presigned PUT instead, and the browser sends the whole file straight to the bucket.

export const CHUNK_BYTES = 8 * 1024 * 1024
/** A chunk's request body limit (a little room over the chunk). */
export const CHUNK_BODY_LIMIT = CHUNK_BYTES + 1024

const dir = () => path.resolve(env().DATA_DIR, 'video-uploads')
export const partFile = (id: string) => path.join(dir(), `${id}.part`)

export async function maxVideoBytes(): Promise<number> {
  return (await getConfigValue<number>('VIDEO_MAX_UPLOAD_MB')) * 1024 * 1024
}

/** A presigned PUT lives this long: long enough for a large file on a slow line. */
const DIRECT_PUT_SECONDS = 6 * 3600
const EXTENSIONS = ['mp4', 'mov', 'webm'] as const

export type StartedUpload = { id: string; chunkSize: number; chunks: number; direct?: { url: string; contentType: string } }

export async function startUpload(userId: string, size: number, name?: string): Promise<StartedUpload> {
  const max = await maxVideoBytes()
  if (size > max) throw payloadTooLarge(`视频不能超过 ${Math.round(max / 1024 / 1024)}MB`)
  if (env().S3_BUCKET) {
    const ext = EXTENSIONS.find((e) => name?.toLowerCase().endsWith(`.${e}`))
    if (!ext) throw badRequest('只支持 MP4、MOV 或 WebM 视频')
    const key = newKey('private/videos', ext)
    const upload = await db().videoUpload.create({ data: { userId, size: BigInt(size), chunkSize: 0, received: [], key }, select: { id: true } })
    const contentType = ext === 'mov' ? 'video/quicktime' : `video/${ext}`
    return { id: upload.id, chunkSize: 0, chunks: 0, direct: { url: await presignedPutUrl(key, DIRECT_PUT_SECONDS, contentType), contentType } }
  }
  const upload = await db().videoUpload.create({ data: { userId, size: BigInt(size), chunkSize: CHUNK_BYTES, received: [] }, select: { id: true } })
  await mkdir(dir(), { recursive: true })
  await (await open(partFile(upload.id), 'w')).close()
  return { id: upload.id, chunkSize: CHUNK_BYTES, chunks: Math.ceil(size / CHUNK_BYTES) }
}

export async function putChunk(userId: string, id: string, index: number, bytes: Uint8Array) {
  const upload = await db().videoUpload.findFirst({ where: { id, userId } })
  if (!upload) throw notFound('上传不存在或已过期，请重新上传')
  if (upload.key) throw badRequest('这个上传直接传到对象存储，不接受分片')
  const size = Number(upload.size)
  const chunks = Math.ceil(size / upload.chunkSize)
  if (index < 0 || index >= chunks) throw badRequest(`分片序号须在 0 到 ${chunks - 1} 之间`)
  const expected = index === chunks - 1 ? size - index * upload.chunkSize : upload.chunkSize
  if (bytes.byteLength !== expected) throw badRequest(`第 ${index} 片应为 ${expected} 字节，收到 ${bytes.byteLength} 字节`)
  const handle = await open(partFile(id), 'r+')
  try {
    await handle.write(bytes, 0, bytes.byteLength, index * upload.chunkSize)
  } finally {
    await handle.close()
  }
  await db().$executeRaw`UPDATE "VideoUpload" SET "received" = array_append("received", ${index}) WHERE "id" = ${id} AND NOT (${index} = ANY("received"))`
  const received = (await db().videoUpload.findUniqueOrThrow({ where: { id }, select: { received: true } })).received.length
  return { index, received, chunks }
}

/**
 * The finished upload, checked complete: a file on disk the caller moves into storage, or (S3)
 * the object the browser put in the bucket. The caller then calls dropUpload.
 */
export async function finishedUpload(userId: string, id: string): Promise<{ file: string } | { key: string; size: number }> {
  const upload = await db().videoUpload.findFirst({ where: { id, userId } })
  if (!upload) throw notFound('上传不存在或已过期，请重新上传')
  if (upload.key) return { key: upload.key, size: Number(upload.size) }
  const chunks = Math.ceil(Number(upload.size) / upload.chunkSize)
  if (new Set(upload.received).size !== chunks) throw badRequest(`还有 ${chunks - new Set(upload.received).size} 个分片未上传`)
  const file = partFile(id)
  if ((await stat(file)).size !== Number(upload.size)) throw badRequest('上传的文件大小不对，请重新上传')
  return { file }
}

export async function dropUpload(id: string): Promise<void> {
  await db().videoUpload.deleteMany({ where: { id } })
  await rm(partFile(id), { force: true })
}

export const PRUNE_VIDEO_UPLOADS_JOB = 'prune-video-uploads'
/** An upload not finished within a day is given up: its part file (or bucket object) goes. */
export const UPLOAD_MAX_AGE_MS = 24 * 3600_000

/** Removes abandoned uploads; returns how many. Objects put straight to S3 are deleted too. */
export async function pruneStaleUploads(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - UPLOAD_MAX_AGE_MS)
  const stale = await db().videoUpload.findMany({ where: { createdAt: { lt: before } }, select: { id: true, key: true } })
  let pruned = 0
  for (const upload of stale) {
    // The row goes first: a video created from this upload meanwhile took it (and its object).
    const { count } = await db().videoUpload.deleteMany({ where: { id: upload.id, createdAt: { lt: before } } })
    if (!count) continue
    if (upload.key) await removeS3(upload.key).catch(() => undefined)
    await dropUpload(upload.id)
    pruned++
  }
  return pruned
}

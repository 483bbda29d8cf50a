import 'server-only'
import { mkdir, open, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { badRequest, notFound } from '@/lib/http/app-error'
import { payloadTooLarge } from '@/lib/http/body-limit'
import { getConfigValue } from '@/lib/site-config/store'

// Chunked uploads of video originals (docs/PROTOCOLS.md "Video uploads"): init with the size →
// PUT each chunk with its index (every chunk exactly CHUNK_BYTES but the last) → the create
// call names the upload id. The parts go to DATA_DIR/video-uploads/<id>.part at their offset,
// so chunks may come in any order and a failed one is simply sent again.

export const CHUNK_BYTES = 8 * 1024 * 1024
/** A chunk's request body limit (a little room over the chunk). */
export const CHUNK_BODY_LIMIT = CHUNK_BYTES + 1024

const dir = () => path.resolve(env().DATA_DIR, 'video-uploads')
export const partFile = (id: string) => path.join(dir(), `${id}.part`)

export async function maxVideoBytes(): Promise<number> {
  return (await getConfigValue<number>('VIDEO_MAX_UPLOAD_MB')) * 1024 * 1024
}

export async function startUpload(userId: string, size: number) {
  const max = await maxVideoBytes()
  if (size > max) throw payloadTooLarge(`视频不能超过 ${Math.round(max / 1024 / 1024)}MB`)
  const upload = await db().videoUpload.create({ data: { userId, size: BigInt(size), chunkSize: CHUNK_BYTES, received: [] }, select: { id: true } })
  await mkdir(dir(), { recursive: true })
  await (await open(partFile(upload.id), 'w')).close()
  return { id: upload.id, chunkSize: CHUNK_BYTES, chunks: Math.ceil(size / CHUNK_BYTES) }
}

export async function putChunk(userId: string, id: string, index: number, bytes: Uint8Array) {
  const upload = await db().videoUpload.findFirst({ where: { id, userId } })
  if (!upload) throw notFound('上传不存在或已过期，请重新上传')
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

/** The finished upload's file, checked complete; the caller moves it into storage and then calls dropUpload. */
export async function finishedUpload(userId: string, id: string): Promise<string> {
  const upload = await db().videoUpload.findFirst({ where: { id, userId } })
  if (!upload) throw notFound('上传不存在或已过期，请重新上传')
  const chunks = Math.ceil(Number(upload.size) / upload.chunkSize)
  if (new Set(upload.received).size !== chunks) throw badRequest(`还有 ${chunks - new Set(upload.received).size} 个分片未上传`)
  const file = partFile(id)
  if ((await stat(file)).size !== Number(upload.size)) throw badRequest('上传的文件大小不对，请重新上传')
  return file
}

export async function dropUpload(id: string): Promise<void> {
  await db().videoUpload.deleteMany({ where: { id } })
  await rm(partFile(id), { force: true })
}

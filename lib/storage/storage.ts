import { randomBytes } from 'node:crypto'
import { env } from '@/lib/env'
import { assertKey, FILES_URL_PREFIX, localSize, putLocal, putLocalFromPath, readLocal, removeLocal } from './local-files'
import { presignedDownloadUrl, publicUrl, putS3, putS3FromPath, readS3, removeS3 } from './s3-files'

/**
 * Where stored files go (avatars, uploads, generated images): an S3-compatible bucket
 * when S3_BUCKET is set, else DATA_DIR/files. Keys are made by the server, never taken
 * from a user, and never reused (so files can be cached forever).
 */
const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
}

export function newKey(folder: string, extension: string): string {
  return `${folder}/${Date.now().toString(36)}-${unguessable()}.${extension}`
}

/**
 * 72 random bits for a file name: /files serves every key that is not private to whoever
 * asks, so a name must not be guessable from one that was shown (a task's other images).
 */
export function unguessable(): string {
  return randomBytes(9)
    .toString('base64url')
    .replace(/[^a-zA-Z0-9]/g, 'x')
}

/** Stores the bytes under the key and returns the URL to show them. */
export async function putFile(key: string, bytes: Buffer): Promise<string> {
  assertKey(key)
  if (!env().S3_BUCKET) return putLocal(key, bytes)
  return putS3(key, bytes, CONTENT_TYPES[key.split('.').at(-1) ?? ''] ?? 'application/octet-stream')
}

/** Stores a file from disk (moved when local, streamed to S3) without reading it into memory. */
export async function putFileFromPath(key: string, file: string): Promise<void> {
  assertKey(key)
  if (!env().S3_BUCKET) return putLocalFromPath(key, file)
  await putS3FromPath(key, file, CONTENT_TYPES[key.split('.').at(-1) ?? ''] ?? 'application/octet-stream')
}

/** The stored bytes, or null when there are none (kept here from before the bucket, or in it). */
export async function readStoredFile(key: string): Promise<Buffer | null> {
  assertKey(key)
  const local = await readLocal(key)
  return local ?? (env().S3_BUCKET ? readS3(key) : null)
}

/**
 * Removes a stored file wherever it is kept; a missing one is fine. The local copy goes even
 * with S3 set: files stored before the bucket was configured stay in DATA_DIR/files.
 */
export async function removeFile(key: string): Promise<void> {
  assertKey(key)
  await removeLocal(key)
  if (env().S3_BUCKET) await removeS3(key)
}

/**
 * The key behind an address putFile gave for a file under `folder`, or null for any other
 * address (a default picture, WeChat's, another site's): it must be exactly our /files
 * address of that key, or the bucket's.
 */
export function storedKeyOf(url: string, folder: string): string | null {
  const key = new RegExp(`(${folder}/[A-Za-z0-9_-][A-Za-z0-9/_.-]*)$`).exec(url)?.[1]
  if (!key || key.includes('..')) return null
  if (url === FILES_URL_PREFIX + key) return key
  return env().S3_BUCKET && url === publicUrl(key) ? key : null
}

/** A presigned S3 download is made when the link is followed, so it needs to live only a few minutes. */
const DOWNLOAD_LINK_SECONDS = 300
/** Names a download may be saved under (they go into a Content-Disposition header). */
const DOWNLOAD_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/**
 * The link that saves a stored file instead of showing it, wherever the file lives: our
 * /files route, which answers with the file as an attachment or sends the browser to a
 * presigned S3 download (a cross-origin image ignores the download attribute of a link).
 */
export function downloadLink(key: string, filename: string): string {
  assertKey(key)
  return `${FILES_URL_PREFIX}${key}?download=${encodeURIComponent(downloadName(filename, key))}`
}

/** The name a download is saved as: the one asked for when it is plain, else the key's own file name. */
export function downloadName(asked: string | null, key: string): string {
  return asked && DOWNLOAD_NAME.test(asked) ? asked : (key.split('/').at(-1) ?? 'download')
}

/**
 * What /files/<key>?download= answers: a file kept in DATA_DIR/files as it is (the route
 * marks it an attachment), else with S3 a presigned GET whose answer S3 marks
 * `attachment; filename=...`; null when there is neither.
 */
export async function fileForDownload(key: string, filename: string): Promise<{ local: true } | { location: string } | null> {
  assertKey(key)
  // Only whether it is kept here: the route streams it (reading a clip whole per request would let downloads exhaust memory).
  if ((await localSize(key)) !== null) return { local: true }
  if (!env().S3_BUCKET) return null
  return { location: await presignedDownloadUrl(key, filename, DOWNLOAD_LINK_SECONDS) }
}

import { randomBytes } from 'node:crypto'
import { env } from '@/lib/env'
import { assertKey, putLocal, readLocal } from './local-files'
import { putS3, readS3 } from './s3-files'

/**
 * Where stored files go (avatars, uploads, generated images): an S3-compatible bucket
 * when S3_BUCKET is set, else DATA_DIR/files. Keys are made by the server, never taken
 * from a user, and never reused (so files can be cached forever).
 */
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif' }

export function newKey(folder: string, extension: string): string {
  return `${folder}/${Date.now().toString(36)}-${randomBytes(9).toString('base64url').replace(/[^a-zA-Z0-9]/g, 'x')}.${extension}`
}

/** Stores the bytes under the key and returns the URL to show them. */
export async function putFile(key: string, bytes: Buffer): Promise<string> {
  assertKey(key)
  if (!env().S3_BUCKET) return putLocal(key, bytes)
  return putS3(key, bytes, CONTENT_TYPES[key.split('.').at(-1) ?? ''] ?? 'application/octet-stream')
}

/** The stored bytes, or null when there are none. */
export async function readStoredFile(key: string): Promise<Buffer | null> {
  assertKey(key)
  return env().S3_BUCKET ? readS3(key) : readLocal(key)
}

import 'server-only'
import { timingSafeEqual } from 'node:crypto'
import { createKeyedHash } from '@/lib/crypto/secret-box'
import { env } from '@/lib/env'
import { localSize } from '@/lib/storage/local-files'
import { presignedGetUrl } from '@/lib/storage/s3-files'
import { getConfigValue } from '@/lib/site-config/store'

// Signed links to video originals (docs/PRODUCT.md §18): an HMAC over the stored key, the
// expiry and the user, with a key derived from AUTH_SECRET. With S3 the bucket's own
// presigned GET is used instead, valid as long, for originals kept in the bucket.

const sign = createKeyedHash('video-link')

export type SignedParams = { u: string; e: string; s: string }

export const signatureOf = (fileKey: string, userId: string, expiresAtSec: number) => sign(`${fileKey}\n${expiresAtSec}\n${userId}`)

export async function linkTtlSeconds(): Promise<number> {
  return Math.max(5, await getConfigValue<number>('VIDEO_LINK_TTL_SECONDS'))
}

/** The link a player or a download follows; `download` names the saved file. */
export async function videoLink(video: { id: string; fileKey: string }, userId: string, download: string | null): Promise<string> {
  const ttl = await linkTtlSeconds()
  // An original stored before the bucket was configured stays on disk and is served from here.
  if (env().S3_BUCKET && (await localSize(video.fileKey)) === null) return presignedGetUrl(video.fileKey, ttl, download)
  const e = Math.floor(Date.now() / 1000) + ttl
  const query = new URLSearchParams({ u: userId, e: String(e), s: signatureOf(video.fileKey, userId, e) })
  if (download) query.set('d', download)
  return `/api/videos/${encodeURIComponent(video.id)}/file?${query}`
}

/** True when the parameters were signed for this key and have not expired. */
export function linkIsValid(fileKey: string, params: Partial<SignedParams>): boolean {
  const { u, e, s } = params
  if (!u || !e || !s || !/^\d{1,12}$/.test(e)) return false
  if (Number(e) < Date.now() / 1000) return false
  const expected = Buffer.from(signatureOf(fileKey, u, Number(e)))
  const given = Buffer.from(s)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

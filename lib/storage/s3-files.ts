import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { env } from '@/lib/env'
import { guardedAgents } from '@/lib/net/guarded-agents'
import { allowedAddresses } from '@/lib/net/metadata-address'

/** Files in an S3-compatible bucket (AWS S3, Aliyun OSS, Tencent COS, MinIO) through the AWS SDK. */
const clients = new Map<string, S3Client>()

/** One client per configuration (tests change the parsed environment between files). */
function client(): S3Client {
  const e = env()
  const id = [e.S3_ENDPOINT, e.S3_REGION, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY, e.S3_FORCE_PATH_STYLE].join('\n')
  let found = clients.get(id)
  if (!found) {
    found = new S3Client({
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      credentials: { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY! },
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      // Like every outbound call: never a link-local or metadata address, and only the checked one.
      requestHandler: { ...guardedAgents(), connectionTimeout: 10_000, requestTimeout: 60_000 },
      // Checksums only where S3 requires them: the SDK's newer default (CRC32 headers on
      // every upload) is refused or mishandled by several S3-compatible stores.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    clients.set(id, found)
  }
  return found
}

/** The endpoint given as an IP address reaches no lookup: it is checked here before each call. */
async function assertEndpointAllowed(): Promise<void> {
  await allowedAddresses(new URL(env().S3_ENDPOINT!).hostname)
}

/** RFC 3986 encoding as S3 expects it in paths (slashes kept). */
function encodePath(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/')
}

/** The address browsers read a stored file from. */
export function publicUrl(key: string): string {
  const e = env()
  if (e.S3_PUBLIC_URL) return `${e.S3_PUBLIC_URL.replace(/\/$/, '')}/${key}`
  const endpoint = new URL(e.S3_ENDPOINT!)
  const host = e.S3_FORCE_PATH_STYLE ? endpoint.host : `${e.S3_BUCKET}.${endpoint.host}`
  return `${endpoint.protocol}//${host}${encodePath(`${e.S3_FORCE_PATH_STYLE ? `/${e.S3_BUCKET}` : ''}/${key}`)}`
}

export async function putS3(key: string, bytes: Buffer, contentType: string): Promise<string> {
  await assertEndpointAllowed()
  try {
    await client().send(
      new PutObjectCommand({ Bucket: env().S3_BUCKET, Key: key, Body: bytes, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' }),
    )
  } catch (error) {
    throw storageError(`object storage refused ${key}`, error)
  }
  return publicUrl(key)
}

export async function readS3(key: string): Promise<Buffer | null> {
  await assertEndpointAllowed()
  try {
    const answer = await client().send(new GetObjectCommand({ Bucket: env().S3_BUCKET, Key: key }))
    return Buffer.from(await answer.Body!.transformToByteArray())
  } catch (error) {
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null
    throw storageError(`object storage could not read ${key}`, error)
  }
}

/**
 * A presigned GET of the file that the browser saves as `filename` (S3 answers it with
 * Content-Disposition: attachment), valid for `expiresIn` seconds.
 */
export async function presignedDownloadUrl(key: string, filename: string, expiresIn: number): Promise<string> {
  await assertEndpointAllowed()
  const command = new GetObjectCommand({ Bucket: env().S3_BUCKET, Key: key, ResponseContentDisposition: `attachment; filename="${filename}"` })
  return getSignedUrl(client(), command, { expiresIn })
}

/** Uploads a file from disk as a stream (large video originals are never held in memory), private (no cache header). */
export async function putS3FromPath(key: string, file: string, contentType: string): Promise<void> {
  await assertEndpointAllowed()
  const { size } = await stat(file)
  try {
    await client().send(
      new PutObjectCommand({ Bucket: env().S3_BUCKET, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: contentType }),
    )
  } catch (error) {
    throw storageError(`object storage refused ${key}`, error)
  }
}

/** A presigned GET valid for `expiresIn` seconds, shown inline or saved as `filename`. */
export async function presignedGetUrl(key: string, expiresIn: number, filename: string | null): Promise<string> {
  await assertEndpointAllowed()
  const command = new GetObjectCommand({
    Bucket: env().S3_BUCKET,
    Key: key,
    ...(filename ? { ResponseContentDisposition: `attachment; filename="${filename}"` } : {}),
  })
  return getSignedUrl(client(), command, { expiresIn })
}

/** A presigned PUT the browser uploads one object with, straight to the bucket (the bucket's CORS must allow PUT from the site). */
export async function presignedPutUrl(key: string, expiresIn: number, contentType: string): Promise<string> {
  await assertEndpointAllowed()
  return getSignedUrl(client(), new PutObjectCommand({ Bucket: env().S3_BUCKET, Key: key, ContentType: contentType }), {
    expiresIn,
    signableHeaders: new Set(['content-type']),
  })
}

/** The first bytes of an object and its whole size, or null when there is no object. */
export async function readS3Head(key: string, bytes: number): Promise<{ head: Buffer; size: number } | null> {
  await assertEndpointAllowed()
  try {
    const answer = await client().send(new GetObjectCommand({ Bucket: env().S3_BUCKET, Key: key, Range: `bytes=0-${bytes - 1}` }))
    const size = Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1] ?? answer.ContentLength ?? 0)
    return { head: Buffer.from(await answer.Body!.transformToByteArray()), size }
  } catch (error) {
    if (error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.$metadata.httpStatusCode === 416)) return null
    throw storageError(`object storage could not read ${key}`, error)
  }
}

export async function removeS3(key: string): Promise<void> {
  await assertEndpointAllowed()
  await client().send(new DeleteObjectCommand({ Bucket: env().S3_BUCKET, Key: key }))
}

/** The HTTP status and S3's error code (AccessDenied, NoSuchBucket ...); S3's own message and the body never go into a message. */
function storageError(what: string, error: unknown): Error {
  if (error instanceof S3ServiceException) return new Error(`${what}: HTTP ${error.$metadata.httpStatusCode ?? '?'} ${error.name}`)
  return new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`)
}

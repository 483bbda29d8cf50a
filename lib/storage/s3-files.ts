import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import { env } from '@/lib/env'
import { allowedAddresses } from '@/lib/net/metadata-address'
import { pinnedLookup } from '@/lib/net/safe-fetch'
import { encodeS3, signRequest } from './sigv4'

/** Files in an S3-compatible bucket, written and read with signed requests. */
function target(key: string) {
  const e = env()
  const endpoint = new URL(e.S3_ENDPOINT!)
  const host = e.S3_FORCE_PATH_STYLE ? endpoint.host : `${e.S3_BUCKET}.${endpoint.host}`
  const path = `${e.S3_FORCE_PATH_STYLE ? `/${e.S3_BUCKET}` : ''}/${key}`
  return { protocol: endpoint.protocol, host, path, credentials: { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY!, region: e.S3_REGION } }
}

async function send(method: 'GET' | 'PUT', key: string, body?: Buffer, extra: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  const t = target(key)
  // Like every outbound call: never a link-local or metadata address, and only the checked one.
  const lookup = pinnedLookup(await allowedAddresses(new URL(`${t.protocol}//${t.host}`).hostname)) as unknown as net.LookupFunction
  const headers = signRequest({ method, path: t.path, headers: { host: t.host, ...extra }, body }, t.credentials)
  const client = t.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(`${t.protocol}//${t.host}${encodeS3(t.path, true)}`, { method, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, timeout: 60_000, lookup }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('object storage timed out')))
    req.on('error', reject)
    req.end(body)
  })
}

/** The address browsers read a stored file from. */
export function publicUrl(key: string): string {
  const e = env()
  if (e.S3_PUBLIC_URL) return `${e.S3_PUBLIC_URL.replace(/\/$/, '')}/${key}`
  const t = target(key)
  return `${t.protocol}//${t.host}${encodeS3(t.path, true)}`
}

export async function putS3(key: string, bytes: Buffer, contentType: string): Promise<string> {
  const res = await send('PUT', key, bytes, { 'content-type': contentType, 'cache-control': 'public, max-age=31536000, immutable' })
  if (res.status < 200 || res.status >= 300) throw new Error(`object storage refused ${key}: HTTP ${res.status}${s3ErrorCode(res.body)}`)
  return publicUrl(key)
}

export async function readS3(key: string): Promise<Buffer | null> {
  const res = await send('GET', key)
  if (res.status === 404) return null
  if (res.status < 200 || res.status >= 300) throw new Error(`object storage could not read ${key}: HTTP ${res.status}`)
  return res.body
}

/** The <Code> of an S3 error document (AccessDenied, NoSuchBucket ...); the body itself never goes into a message. */
function s3ErrorCode(body: Buffer): string {
  const code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body.toString('utf8'))?.[1]
  return code ? ` ${code}` : ''
}

import { createHash, createHmac } from 'node:crypto'

/**
 * AWS Signature Version 4 as S3 computes it, written from the documented canonical-request /
 * string-to-sign / signing-key steps. The fake S3 server recomputes the signature of every
 * request the app's S3 client (the AWS SDK) sends with it, header-signed or presigned; its
 * own unit test checks it against AWS's worked examples.
 */
export type SigV4Credentials = { accessKeyId: string; secretAccessKey: string; region: string; service?: string }

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/** RFC 3986 encoding as S3 expects it (slashes kept in paths). */
export function encodeS3(value: string, keepSlash: boolean): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, keepSlash ? '/' : '%2F')
}

export function amzDate(date: Date): string {
  return date.toISOString().replace(/[:-]|\.\d{3}/g, '')
}

/** The signature of a canonical request whose headers are exactly the signed ones. */
export function signature(
  request: { method: string; path: string; query?: URLSearchParams; headers: Record<string, string>; payloadHash: string },
  credentials: SigV4Credentials,
  stamp: string,
): { signature: string; scope: string; signedHeaders: string } {
  const service = credentials.service ?? 's3'
  const day = stamp.slice(0, 8)
  const headers = Object.entries(lowerKeys(request.headers)).sort(([a], [b]) => (a < b ? -1 : 1))
  const names = headers.map(([name]) => name)
  const canonicalQuery = [...(request.query ?? new URLSearchParams()).entries()]
    .map(([k, v]) => [encodeS3(k, false), encodeS3(v, false)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const canonicalRequest = [
    request.method,
    encodeS3(request.path, true),
    canonicalQuery,
    headers.map(([name, value]) => `${name}:${value.trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    request.payloadHash,
  ].join('\n')
  const scope = `${day}/${credentials.region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), service), 'aws4_request')
  return { signature: createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex'), scope, signedHeaders: names.join(';') }
}

/**
 * Returns the headers to send: the given ones plus x-amz-date, x-amz-content-sha256 and
 * Authorization. `headers` must include host; every header given is signed.
 */
export function signRequest(
  request: { method: string; path: string; query?: URLSearchParams; headers: Record<string, string>; body?: Buffer },
  credentials: SigV4Credentials,
  now = new Date(),
): Record<string, string> {
  const stamp = amzDate(now)
  const payloadHash = request.headers['x-amz-content-sha256'] ?? sha256Hex(request.body ?? Buffer.alloc(0))
  const headers: Record<string, string> = { ...lowerKeys(request.headers), 'x-amz-date': stamp, 'x-amz-content-sha256': payloadHash }
  const signed = signature({ ...request, headers, payloadHash }, credentials, stamp)
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${signed.scope}, SignedHeaders=${signed.signedHeaders}, Signature=${signed.signature}`,
  }
}

export const sha256 = sha256Hex

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}

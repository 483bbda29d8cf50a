import { createHash, createHmac } from 'node:crypto'

/**
 * AWS Signature Version 4 for S3-compatible object storage (AWS S3, Aliyun OSS, Tencent
 * COS, MinIO ...): signs a request with an access key, following the documented
 * canonical-request / string-to-sign / signing-key steps.
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

/**
 * Returns the headers to send: the given ones plus x-amz-date, x-amz-content-sha256 and
 * Authorization. `headers` must include host; every header given is signed.
 */
export function signRequest(
  request: { method: string; path: string; query?: URLSearchParams; headers: Record<string, string>; body?: Buffer },
  credentials: SigV4Credentials,
  now = new Date(),
): Record<string, string> {
  const service = credentials.service ?? 's3'
  const stamp = amzDate(now)
  const day = stamp.slice(0, 8)
  const payloadHash = request.headers['x-amz-content-sha256'] ?? sha256Hex(request.body ?? Buffer.alloc(0))
  const headers: Record<string, string> = { ...lowerKeys(request.headers), 'x-amz-date': stamp, 'x-amz-content-sha256': payloadHash }
  const names = Object.keys(headers).sort()
  const canonicalQuery = [...(request.query ?? new URLSearchParams()).entries()]
    .map(([k, v]) => [encodeS3(k, false), encodeS3(v, false)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const canonicalRequest = [
    request.method,
    encodeS3(request.path, true),
    canonicalQuery,
    names.map((n) => `${n}:${headers[n].trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    payloadHash,
  ].join('\n')
  const scope = `${day}/${credentials.region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), service), 'aws4_request')
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex')
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  }
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}

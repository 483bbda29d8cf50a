// A fake S3-compatible object store: path-style PUT and GET of objects, checking AWS
// Signature Version 4 the way S3 does (recomputing it from the request, header-signed or
// presigned, with tests/fakes/sigv4.ts), and answering S3's XML errors. A presigned GET
// may set the answer's Content-Disposition (response-content-disposition), as S3 does; a
// presigned PUT stores an object (browser uploads straight to the bucket); GET honours one
// byte range (Range: bytes=a-b → 206 with Content-Range).
import type http from 'node:http'
import { record, startServer, type RecordedRequest } from './common'
import { sha256, signature } from './sigv4'

type StoredObject = { bytes: Buffer; contentType: string; cacheControl: string | null }

function s3Error(res: http.ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/xml' })
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`)
}

const dateOf = (stamp: string) =>
  new Date(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`)

type Verdict = { ok: true } | { ok: false; status: number; code: string; message: string }
const refuse = (status: number, code: string, message: string): Verdict => ({ ok: false, status, code, message })
const BAD_SIGNATURE = refuse(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.')

export async function startFakeS3(options: { bucket: string; accessKeyId: string; secretAccessKey: string; region?: string }) {
  const objects = new Map<string, StoredObject>()
  const calls: RecordedRequest[] = []
  const credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, region: options.region ?? 'us-east-1' }
  const unknownKey = refuse(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.')
  const headerOf = (req: http.IncomingMessage, name: string) => String(req.headers[name] ?? '')

  /** Authorization: AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=... */
  function verifyHeaderSigned(req: http.IncomingMessage, url: URL, raw: Buffer): Verdict {
    const auth = req.headers.authorization ?? ''
    const stamp = headerOf(req, 'x-amz-date')
    if (!stamp || /Credential=([^/]+)\//.exec(auth)?.[1] !== options.accessKeyId) return unknownKey
    const payloadHash = headerOf(req, 'x-amz-content-sha256')
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(raw))
      return refuse(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.')
    const names = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? []
    if (!names.includes('host') || !names.includes('x-amz-date')) return BAD_SIGNATURE
    const headers = Object.fromEntries(names.map((h) => [h, headerOf(req, h)]))
    const expected = signature(
      { method: req.method!, path: decodeURIComponent(url.pathname), query: url.searchParams, headers, payloadHash: payloadHash || sha256(raw) },
      credentials,
      stamp,
    )
    return auth ===
      `AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/${expected.scope}, SignedHeaders=${expected.signedHeaders}, Signature=${expected.signature}`
      ? { ok: true }
      : BAD_SIGNATURE
  }

  /** ?X-Amz-Algorithm=...&X-Amz-Credential=...&X-Amz-Date=...&X-Amz-Expires=...&X-Amz-SignedHeaders=...&X-Amz-Signature=... */
  function verifyPresigned(req: http.IncomingMessage, url: URL): Verdict {
    const q = url.searchParams
    if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || q.get('X-Amz-Credential')?.split('/')[0] !== options.accessKeyId) return unknownKey
    const stamp = q.get('X-Amz-Date') ?? ''
    if (dateOf(stamp).getTime() + Number(q.get('X-Amz-Expires')) * 1000 < Date.now()) return refuse(403, 'AccessDenied', 'Request has expired')
    const query = new URLSearchParams([...q].filter(([name]) => name !== 'X-Amz-Signature'))
    const names = (q.get('X-Amz-SignedHeaders') ?? '').split(';')
    const headers = Object.fromEntries(names.map((h) => [h, headerOf(req, h)]))
    const expected = signature(
      { method: req.method!, path: decodeURIComponent(url.pathname), query, headers, payloadHash: 'UNSIGNED-PAYLOAD' },
      credentials,
      stamp,
    )
    return q.get('X-Amz-Signature') === expected.signature ? { ok: true } : BAD_SIGNATURE
  }

  const fake = await startServer((req, res, url, raw) => {
    record(calls, req, url, null)
    const presigned = url.searchParams.has('X-Amz-Signature')
    const verdict = presigned ? verifyPresigned(req, url) : verifyHeaderSigned(req, url, raw)
    if (!verdict.ok) return s3Error(res, verdict.status, verdict.code, verdict.message)

    const [, bucket, ...rest] = decodeURIComponent(url.pathname).split('/')
    if (bucket !== options.bucket) return s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist')
    const key = rest.join('/')
    if (req.method === 'PUT') {
      objects.set(key, {
        bytes: raw,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        cacheControl: (req.headers['cache-control'] as string) ?? null,
      })
      res.writeHead(200, { etag: '"fake"' })
      return res.end()
    }
    if (req.method === 'GET') {
      const object = objects.get(key)
      if (!object) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.')
      const disposition = url.searchParams.get('response-content-disposition')
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''))
      if (range) {
        const start = Number(range[1])
        const end = Math.min(range[2] ? Number(range[2]) : object.bytes.length - 1, object.bytes.length - 1)
        if (start >= object.bytes.length) return s3Error(res, 416, 'InvalidRange', 'The requested range is not satisfiable')
        res.writeHead(206, {
          'content-type': object.contentType,
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${object.bytes.length}`,
        })
        return res.end(object.bytes.subarray(start, end + 1))
      }
      res.writeHead(200, {
        'content-type': object.contentType,
        'content-length': object.bytes.length,
        ...(disposition ? { 'content-disposition': disposition } : {}),
      })
      return res.end(object.bytes)
    }
    if (req.method === 'DELETE') {
      // S3 answers 204 whether or not the key existed.
      objects.delete(key)
      res.writeHead(204)
      return res.end()
    }
    return s3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.')
  })
  return { url: fake.url, objects, calls, close: fake.close }
}

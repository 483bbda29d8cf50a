// A fake S3-compatible object store: path-style PUT and GET of objects, checking AWS
// Signature Version 4 the way S3 does (recomputing it from the request) and answering
// S3's XML errors.
import type http from 'node:http'
import { signRequest } from '@/lib/storage/sigv4'
import { record, startServer, type RecordedRequest } from './common'

type StoredObject = { bytes: Buffer; contentType: string; cacheControl: string | null }

function s3Error(res: http.ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/xml' })
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`)
}

export async function startFakeS3(options: { bucket: string; accessKeyId: string; secretAccessKey: string; region?: string }) {
  const objects = new Map<string, StoredObject>()
  const calls: RecordedRequest[] = []
  const region = options.region ?? 'us-east-1'

  const fake = await startServer((req, res, url, raw) => {
    record(calls, req, url, null)
    const auth = req.headers.authorization ?? ''
    const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? []
    const date = req.headers['x-amz-date']
    const credential = /Credential=([^/]+)\//.exec(auth)?.[1]
    if (!date || credential !== options.accessKeyId) return s3Error(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.')
    const headers = Object.fromEntries(signed.filter((h) => h !== 'x-amz-date').map((h) => [h, String(req.headers[h] ?? '')]))
    const when = new Date(`${String(date).slice(0, 4)}-${String(date).slice(4, 6)}-${String(date).slice(6, 8)}T${String(date).slice(9, 11)}:${String(date).slice(11, 13)}:${String(date).slice(13, 15)}Z`)
    const expected = signRequest({ method: req.method!, path: decodeURIComponent(url.pathname), headers, body: raw }, { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, region }, when)
    if (expected.authorization !== auth) return s3Error(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.')

    const [, bucket, ...rest] = decodeURIComponent(url.pathname).split('/')
    if (bucket !== options.bucket) return s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist')
    const key = rest.join('/')
    if (req.method === 'PUT') {
      objects.set(key, { bytes: raw, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), cacheControl: (req.headers['cache-control'] as string) ?? null })
      res.writeHead(200, { etag: '"fake"' })
      return res.end()
    }
    if (req.method === 'GET') {
      const object = objects.get(key)
      if (!object) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.')
      res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.bytes.length })
      return res.end(object.bytes)
    }
    return s3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.')
  })
  return { url: fake.url, objects, calls, close: fake.close }
}

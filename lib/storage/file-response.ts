import { parseRange } from './byte-range'
import { localSize, localStream } from './local-files'

/**
 * A stored local file as an HTTP answer with byte ranges (Range: bytes=a-b → 206, beyond the
 * end → 416), so a video can seek and a phone need not fetch the whole file first. Null when
 * the file is not stored.
 */
export async function rangedFileResponse(
  req: Request,
  key: string,
  options: { type: string; disposition: string; cacheControl: string },
): Promise<Response | null> {
  const size = await localSize(key)
  if (size === null) return null
  const headers: Record<string, string> = {
    'Content-Type': options.type,
    'Cache-Control': options.cacheControl,
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': options.disposition,
    'Accept-Ranges': 'bytes',
  }
  const range = parseRange(req.headers.get('range'), size)
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } })
  if (size === 0) return new Response(new Uint8Array(0), { headers: { ...headers, 'Content-Length': '0' } })
  const { start, end } = range ?? { start: 0, end: size - 1 }
  return new Response(localStream(key, { start, end }), {
    status: range ? 206 : 200,
    headers: { ...headers, 'Content-Length': String(end - start + 1), ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}) },
  })
}

// GET /files/{key}: stored files, immutable (keys are never reused), served as what they are,
// with byte ranges (Range: bytes=a-b → 206, beyond the end → 416) so a video can seek.
// ?download=<name>: saved as <name> instead: the local file as an attachment, or with S3 a
// redirect to a presigned download that S3 answers as an attachment (S3 serves ranges itself).
import { rangedFileResponse } from '@/lib/storage/file-response'
import { isPrivateKey } from '@/lib/storage/local-files'
import { downloadName, fileForDownload } from '@/lib/storage/storage'

const TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
}

export async function GET(req: Request, { params }: { params: Promise<{ key: string[] }> }) {
  const key = (await params).key.join('/')
  // Video originals: only through a signed link (app/api/videos/[id]/file), never here.
  if (isPrivateKey(key)) return notFound()
  const type = TYPES[key.split('.').at(-1)?.toLowerCase() ?? '']
  if (!type) return notFound()
  const asked = new URL(req.url).searchParams.get('download')
  if (asked === null) return file(req, key, type, 'inline')
  const name = downloadName(asked, key)
  const found = await fileForDownload(key, name).catch(() => null)
  if (!found) return notFound()
  if ('location' in found) return new Response(null, { status: 302, headers: { Location: found.location, 'Cache-Control': 'no-store' } })
  return file(req, key, type, `attachment; filename="${name}"`)
}

async function file(req: Request, key: string, type: string, disposition: string): Promise<Response> {
  const answer = await rangedFileResponse(req, key, { type, disposition, cacheControl: 'public, max-age=31536000, immutable' })
  return answer ?? notFound()
}

const notFound = () => new Response('Not found', { status: 404 })

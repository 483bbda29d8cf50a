// GET /files/{key}: stored files, immutable (keys are never reused), served as what they are.
// ?download=<name>: saved as <name> instead: the local file as an attachment, or with S3 a
// redirect to a presigned download that S3 answers as an attachment.
import { readLocal } from '@/lib/storage/local-files'
import { downloadName, fileForDownload } from '@/lib/storage/storage'

const TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif' }

export async function GET(req: Request, { params }: { params: Promise<{ key: string[] }> }) {
  const key = (await params).key.join('/')
  const type = TYPES[key.split('.').at(-1)?.toLowerCase() ?? '']
  if (!type) return notFound()
  const asked = new URL(req.url).searchParams.get('download')
  if (asked === null) {
    const bytes = await readLocal(key)
    return bytes ? file(bytes, type, 'inline') : notFound()
  }
  const name = downloadName(asked, key)
  const found = await fileForDownload(key, name).catch(() => null)
  if (!found) return notFound()
  if ('location' in found) return new Response(null, { status: 302, headers: { Location: found.location, 'Cache-Control': 'no-store' } })
  return file(found.bytes, type, `attachment; filename="${name}"`)
}

function file(bytes: Buffer, type: string, disposition: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': disposition,
    },
  })
}

const notFound = () => new Response('Not found', { status: 404 })

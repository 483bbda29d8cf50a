import 'server-only'
import { db } from '@/lib/db'
import { rangedFileResponse } from '@/lib/storage/file-response'
import { linkIsValid, type SignedParams } from './video-link'

const TYPES: Record<string, string> = { mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime' }
const ID = /^[A-Za-z0-9_-]{1,64}$/
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/**
 * GET /api/videos/{id}/file?u=&e=&s=[&d=name]: the original behind a signed link, with byte
 * ranges. A link that is missing, forged, made for another file or expired answers 403.
 */
export async function serveSignedVideo(req: Request, id: string, params: Partial<SignedParams> & { d?: string }): Promise<Response> {
  // Not an id the site makes (cuid): no row to read, and U+0000 would be refused by PostgreSQL.
  const v = ID.test(id) ? await db().video.findUnique({ where: { id }, select: { fileKey: true } }) : null
  if (!v || !linkIsValid(v.fileKey, params)) return plain(403, '链接无效或已过期，请刷新页面后重试')
  const type = TYPES[v.fileKey.split('.').at(-1) ?? ''] ?? 'application/octet-stream'
  const disposition = params.d && NAME.test(params.d) ? `attachment; filename="${params.d}"` : 'inline'
  const answer = await rangedFileResponse(req, v.fileKey, { type, disposition, cacheControl: 'private, no-store' })
  return answer ?? plain(404, '文件不存在')
}

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

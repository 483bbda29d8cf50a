// GET /api/videos/{id}/file?u=&e=&s=[&d=] → the original behind a signed link (byte ranges: 206), 403 when the link is bad or expired.
import { serveSignedVideo } from '@/lib/videos/serve-video'

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const search = new URL(req.url).searchParams
  return serveSignedVideo(req, (await params).id, {
    u: search.get('u') ?? undefined,
    e: search.get('e') ?? undefined,
    s: search.get('s') ?? undefined,
    d: search.get('d') ?? undefined,
  })
}

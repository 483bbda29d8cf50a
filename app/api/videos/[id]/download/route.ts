// GET /api/videos/{id}/download → 302 to a signed, expiring link to the original (free: any signed-in user; paid: bought). 401 signed out, 403 not bought.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { downloadLinkFor } from '@/lib/videos/list-videos'

const ZParams = z.object({ id: z.string().min(1).max(64) })

export const GET = route({ access: 'public', params: ZParams }, async ({ user, params }) => {
  const location = await downloadLinkFor(user, params.id)
  return new Response(null, { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } })
})

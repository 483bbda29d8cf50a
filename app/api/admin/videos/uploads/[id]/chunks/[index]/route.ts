// PUT /api/admin/videos/uploads/{id}/chunks/{index} (ADMIN, raw bytes) → data {index, received, chunks}.
import { z } from '@/lib/zod'
import { readBodyWithin } from '@/lib/http/body-limit'
import { route } from '@/lib/http/route'
import { CHUNK_BODY_LIMIT, putChunk } from '@/lib/videos/chunked-upload'

const ZParams = z.object({ id: z.string().min(1).max(64), index: z.coerce.number().int().min(0) })

export const PUT = route({ access: 'admin', params: ZParams, maxBodyBytes: CHUNK_BODY_LIMIT }, async ({ req, user, params }) =>
  putChunk(user.id, params.id, params.index, await readBodyWithin(req, CHUNK_BODY_LIMIT)),
)

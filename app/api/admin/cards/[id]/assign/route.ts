// POST /api/admin/cards/{id}/assign {userId}: hands a ready card to a user (audited). ADMIN only:
// handing out a card hands out its points.
import { z } from '@/lib/zod'
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { assignCard } from '@/lib/cards/manage-card'

const ZBody = z.object({ userId: z.string().min(1).max(64) }).strict()

export const POST = route({ access: 'admin', params: ZSerialIdParamsSchema, body: ZBody }, ({ user, ip, params, body }) =>
  assignCard(user, ip, params.id, body.userId),
)

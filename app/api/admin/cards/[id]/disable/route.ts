// POST /api/admin/cards/{id}/disable {disabled}: stops or allows again the redemption of an unused card.
import { z } from '@/lib/zod'
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { setCardDisabled } from '@/lib/cards/manage-card'

const ZBody = z.object({ disabled: z.boolean() }).strict()

export const POST = route({ access: 'console', params: ZSerialIdParamsSchema, body: ZBody }, ({ user, ip, params, body }) =>
  setCardDisabled(user, ip, params.id, body.disabled),
)

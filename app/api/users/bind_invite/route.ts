// POST /api/users/bind_invite {code} → data: the caller's invite view (GET /api/users/my/invite), now with the inviter.
// Refused (with why) for an unknown code, one's own code, a second binding and a ring (docs/PRODUCT.md §17).
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { bindInvite } from '@/lib/invites/bind-inviter'
import { ZBindInviteSchema } from '@/lib/invites/schemas'

export const POST = route({ access: 'user', body: ZBindInviteSchema }, ({ req, user, body }) => bindInvite(user, body.code, siteOrigin(req)))

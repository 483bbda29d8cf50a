// GET /api/users/my/invite → data { code, link, invitedCount, earnings: { balance, points }, inviter? } (docs/PRODUCT.md §17).
import { route } from '@/lib/http/route'
import { siteOrigin } from '@/lib/http/site-origin'
import { getMyInvite } from '@/lib/invites/my-invite'

export const GET = route({ access: 'user' }, ({ req, user }) => getMyInvite(user, siteOrigin(req)))

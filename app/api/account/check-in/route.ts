// POST /api/account/check-in → { points, total }: today's 签到 (409 when done today, 404 when the site has none).
import { route } from '@/lib/http/route'
import { checkIn } from '@/lib/payments/wallet'

export const POST = route({ access: 'user' }, ({ user }) => checkIn(user.id))

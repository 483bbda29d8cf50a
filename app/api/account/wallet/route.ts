// GET /api/account/wallet → { balance, points, membership, chatMembership, checkIn, channels, recharge } for /account.
import { route } from '@/lib/http/route'
import { getWallet } from '@/lib/payments/wallet'

export const GET = route({ access: 'user' }, ({ user }) => getWallet(user.id))

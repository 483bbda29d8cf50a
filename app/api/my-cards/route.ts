// GET /api/my-cards → data: the cards the caller holds or has redeemed (keys masked).
import { route } from '@/lib/http/route'
import { listMyCards } from '@/lib/cards/list-cards'

export const GET = route({ access: 'user' }, ({ user }) => listMyCards(user.id))

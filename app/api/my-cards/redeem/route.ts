// POST /api/my-cards/redeem {cardKey} or {cardId}: redeems once, credits the points → data: {card, points}.
import { route } from '@/lib/http/route'
import { redeemCard } from '@/lib/cards/redeem-card'
import { ZRedeemSchema } from '@/lib/cards/schemas'

export const POST = route({ access: 'user', body: ZRedeemSchema }, ({ user, ip, body }) => redeemCard(user.id, ip, body))

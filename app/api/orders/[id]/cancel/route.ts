// POST /api/orders/{id}/cancel → the order, CANCELED (closed at the provider first; a payment that got there first is kept).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { cancelMyOrder } from '@/lib/payments/my-orders'

export const POST = route({ access: 'user', params: z.object({ id: z.string().min(1).max(64) }) }, ({ user, params }) => cancelMyOrder(user.id, params.id))

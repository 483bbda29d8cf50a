// GET /api/orders/{id} → the caller's order (404 for another's); a pending one is also asked about at the provider (throttled).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { getMyOrder } from '@/lib/payments/my-orders'

export const GET = route({ access: 'user', params: z.object({ id: z.string().min(1).max(64) }) }, ({ user, params }) => getMyOrder(user.id, params.id))

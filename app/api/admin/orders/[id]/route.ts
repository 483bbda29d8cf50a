// GET /api/admin/orders/{id} → the order with its grant and every notification received.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { getOrderForAdmin } from '@/lib/payments/admin-orders'

export const GET = route({ access: 'console', params: z.object({ id: z.string().min(1).max(64) }) }, ({ params }) => getOrderForAdmin(params.id))

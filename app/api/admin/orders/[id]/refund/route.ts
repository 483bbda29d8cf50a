// POST /api/admin/orders/{id}/refund {reason} (ADMIN, audited) → the order, refunded in full (400 when the credit was spent).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { refundOrder } from '@/lib/payments/refund-order'
import { ZReason } from '@/lib/payments/schemas'

export const POST = route({ access: 'admin', params: z.object({ id: z.string().min(1).max(64) }), body: ZReason }, ({ user, ip, params, body }) =>
  refundOrder(user, ip, params.id, body.reason),
)

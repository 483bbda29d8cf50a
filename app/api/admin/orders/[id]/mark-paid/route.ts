// POST /api/admin/orders/{id}/mark-paid {reason} (ADMIN, audited) → the order, fulfilled once.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { markOrderPaid } from '@/lib/payments/admin-orders'
import { ZReason } from '@/lib/payments/schemas'

export const POST = route({ access: 'admin', params: z.object({ id: z.string().min(1).max(64) }), body: ZReason }, ({ user, ip, params, body }) =>
  markOrderPaid(user, ip, params.id, body.reason),
)

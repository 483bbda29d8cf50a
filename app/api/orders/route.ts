// POST /api/orders {productId?, type, amount?, channel, tradeType?, alipayMethod?, returnPath?} (+ Idempotency-Key) → data {order, payment}.
// GET /api/orders?page=&pageSize= → the caller's orders, newest first: data.list, data.total.
import { route } from '@/lib/http/route'
import { idempotencyKeyOf } from '@/lib/http/idempotency-key'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { createOrder } from '@/lib/payments/create-order'
import { listMyOrders } from '@/lib/payments/my-orders'
import { ZCreateOrderSchema } from '@/lib/payments/schemas'

export const POST = route({ access: 'user', body: ZCreateOrderSchema }, ({ req, user, ip, body }) =>
  createOrder({ userId: user.id, clientIp: ip, idempotencyKey: idempotencyKeyOf(req) }, body),
)

export const GET = route({ access: 'user', query: ZPageQuerySchema }, ({ user, query }) => listMyOrders(user.id, query))

// GET /api/admin/orders?page=&pageSize=&type=&channel=&status=&user=&from=&to= → data.list, data.total.
import { route } from '@/lib/http/route'
import { listOrdersForAdmin } from '@/lib/payments/admin-orders'
import { ZAdminOrderQuery } from '@/lib/payments/schemas'

export const GET = route({ access: 'console', query: ZAdminOrderQuery }, ({ query }) => listOrdersForAdmin(query))

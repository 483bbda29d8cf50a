// GET /api/users/my/invite/records?page=&pageSize= → data.list (invitee masked, order type, amounts, commission, time), data.total.
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { route } from '@/lib/http/route'
import { listMyCommission } from '@/lib/invites/list-commission'

export const GET = route({ access: 'user', query: ZPageQuerySchema }, ({ user, query }) => listMyCommission(user.id, query))

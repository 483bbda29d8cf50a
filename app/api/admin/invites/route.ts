// GET /api/admin/invites?page=&pageSize=&keyword= → data.list (inviter, invitee, time, orders, commission), data.total (console).
import { route } from '@/lib/http/route'
import { listInviteRelations } from '@/lib/invites/list-commission'
import { ZInviteRelationQuery } from '@/lib/invites/schemas'

export const GET = route({ access: 'console', query: ZInviteRelationQuery }, ({ query }) => listInviteRelations(query))

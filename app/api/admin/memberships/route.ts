// GET /api/admin/memberships?kind=IMAGE|CHAT&page=&pageSize= → the members whose plan still runs: data.list, data.total.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listActiveMembers } from '@/lib/memberships/list-members'

const ZQuery = z.object({ ...ZPageQuerySchema.shape, kind: z.enum(['IMAGE', 'CHAT']).default('IMAGE') })

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => listActiveMembers(query.kind, query))

// GET /api/users?page=&pageSize=&keyword=&role= : the console's user list (ADMIN, MANAGER).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listUsers } from '@/lib/users/admin/list-users'
import { ZUserListQuerySchema } from '@/lib/users/schemas'

const ZQuery = z.object({ ...ZPageQuerySchema.shape, ...ZUserListQuerySchema.shape })

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => listUsers(query))

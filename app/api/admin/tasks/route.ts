// GET /api/admin/tasks?page=&pageSize=&type=&status=&user=&from=&to= → every task: data.list, data.total.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listTasksForAdmin } from '@/lib/tasks/list-tasks-for-admin'
import { ZStatusSchema, ZTaskTypeSchema } from '@/lib/tasks/schemas'

const ZQuery = z.object({
  ...ZPageQuerySchema.shape,
  type: ZTaskTypeSchema.optional(),
  status: ZStatusSchema.optional(),
  user: z.string().trim().max(64).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
})

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => listTasksForAdmin(query))

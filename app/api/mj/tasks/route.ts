// GET /api/mj/tasks?page=&pageSize= → the caller's Midjourney tasks as trees (data.list, data.total):
// each first task with the tasks its buttons started, nested in `children`.
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listMjTaskTrees } from '@/lib/tasks/list-mj-tasks'

export const GET = route({ access: 'user', query: ZPageQuerySchema }, ({ user, query }) => listMjTaskTrees(user.id, query))

// POST /api/tasks {type, modelId?, params} (+ Idempotency-Key header) → data: the task, charged and queued.
// GET /api/tasks?page=&pageSize=&status=&type= → the caller's own tasks: data.list, data.total.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listMyTasks } from '@/lib/tasks/list-tasks'
import { ZIdempotencyKeySchema, ZStatusSchema, ZSubmitTaskSchema, ZTaskTypeSchema } from '@/lib/tasks/schemas'
import { submitTask } from '@/lib/tasks/submit-task'

export const POST = route({ access: 'user', body: ZSubmitTaskSchema }, ({ req, user, body }) =>
  submitTask(user.id, body, ZIdempotencyKeySchema.parse(req.headers.get('idempotency-key') ?? undefined)),
)

const ZQuery = z.object({ ...ZPageQuerySchema.shape, status: ZStatusSchema.optional(), type: ZTaskTypeSchema.optional() })

export const GET = route({ access: 'user', query: ZQuery }, ({ user, query }) => listMyTasks(user.id, query))

// GET /api/admin/tasks/{id}: a task's parameters, backend answers, errors and ledger rows.
import { route } from '@/lib/http/route'
import { getTaskForAdmin } from '@/lib/tasks/admin-tasks'
import { ZTaskIdParamsSchema } from '@/lib/tasks/schemas'

export const GET = route({ access: 'console', params: ZTaskIdParamsSchema }, ({ params }) => getTaskForAdmin(params.id))

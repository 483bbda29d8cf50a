// GET /api/admin/tasks/{id}: a task's parameters, backend answers, errors and ledger rows.
import { route } from '@/lib/http/route'
import { getTaskForAdmin } from '@/lib/tasks/get-task-for-admin'
import { ZIdParamsSchema } from '@/lib/http/params'

export const GET = route({ access: 'console', params: ZIdParamsSchema }, ({ params }) => getTaskForAdmin(params.id))

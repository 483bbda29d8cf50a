// POST /api/wall/{id}/report → data { reported: true }: the caller reports the work to the admin (once per user).
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { reportWork } from '@/lib/wall/report-work'

export const POST = route({ access: 'user', params: ZIdParamsSchema }, ({ user, params }) => reportWork(user.id, params.id))

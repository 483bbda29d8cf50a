// POST /api/admin/wall/{id}/approve → a submission (or a hidden work) goes on the wall (audited).
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { approveWork } from '@/lib/wall/moderate-work'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => approveWork(user, ip, params.id))

// PATCH /api/admin/showcase/{id} {title, coverWorkId, workIds, sort} replaces a collection; DELETE removes it (audited).
import { route } from '@/lib/http/route'
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { ZShowcaseSchema } from '@/lib/wall/schemas'
import { deleteShowcase, updateShowcase } from '@/lib/wall/showcases'

export const PATCH = route({ access: 'console', params: ZSerialIdParamsSchema, body: ZShowcaseSchema }, ({ user, ip, params, body }) =>
  updateShowcase(user, ip, params.id, body),
)

export const DELETE = route({ access: 'console', params: ZSerialIdParamsSchema }, ({ user, ip, params }) => deleteShowcase(user, ip, params.id))

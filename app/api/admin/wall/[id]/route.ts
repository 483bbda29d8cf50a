// PATCH /api/admin/wall/{id} {sort} → the order of a recommended work (higher first; audited).
import { route } from '@/lib/http/route'
import { ZIdParamsSchema } from '@/lib/http/params'
import { setWorkSort } from '@/lib/wall/moderate-work'
import { ZWallSortSchema } from '@/lib/wall/schemas'

export const PATCH = route({ access: 'console', params: ZIdParamsSchema, body: ZWallSortSchema }, ({ user, ip, params, body }) =>
  setWorkSort(user, ip, params.id, body.sort),
)

// PATCH /api/admin/user/{id} {name?, role?, mobile?, banned?, password?} and DELETE: audited.
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { deleteUserByAdmin } from '@/lib/users/admin/delete-user'
import { updateUserByAdmin } from '@/lib/users/admin/update-user'
import { ZAdminUserUpdateSchema } from '@/lib/users/schemas'

export const PATCH = route({ access: 'console', params: ZIdParamsSchema, body: ZAdminUserUpdateSchema }, ({ user, ip, params, body }) =>
  updateUserByAdmin(user, ip, params.id, body),
)

export const DELETE = route({ access: 'console', params: ZIdParamsSchema }, ({ user, ip, params }) => deleteUserByAdmin(user, ip, params.id))

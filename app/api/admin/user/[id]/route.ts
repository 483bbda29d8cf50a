// PATCH /api/admin/user/{id} {name?, role?, mobile?, banned?, password?} and DELETE: audited.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { deleteUserByAdmin } from '@/lib/users/admin/delete-user'
import { updateUserByAdmin } from '@/lib/users/admin/update-user'
import { ZAdminUserUpdateSchema } from '@/lib/users/schemas'

const ZParams = z.object({ id: z.string().min(1).max(64) })

export const PATCH = route({ access: 'console', params: ZParams, body: ZAdminUserUpdateSchema }, ({ user, ip, params, body }) =>
  updateUserByAdmin(user, ip, params.id, body),
)

export const DELETE = route({ access: 'console', params: ZParams }, ({ user, ip, params }) => deleteUserByAdmin(user, ip, params.id))

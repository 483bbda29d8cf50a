// POST /api/admin/user {username, name, password, role, mobile?}: creates a user (audited).
import { route } from '@/lib/http/route'
import { createUserByAdmin } from '@/lib/users/admin/create-user'
import { ZAdminUserCreateSchema } from '@/lib/users/schemas'

export const POST = route({ access: 'console', body: ZAdminUserCreateSchema }, ({ user, ip, body }) => createUserByAdmin(user, ip, body))

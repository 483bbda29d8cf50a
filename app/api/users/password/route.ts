// POST /api/users/password {currentPassword, newPassword} → data.token: other sessions end. An account
// without a password sets its first one (currentPassword '') within 10 minutes of signing in.
import { route } from '@/lib/http/route'
import { changePassword } from '@/lib/users/change-password'
import { ZPasswordChangeSchema } from '@/lib/users/schemas'

export const POST = route({ access: 'user', body: ZPasswordChangeSchema }, ({ user, body }) =>
  changePassword(user.id, body.currentPassword, body.newPassword, user.signedInAt),
)

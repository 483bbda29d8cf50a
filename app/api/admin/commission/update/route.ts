// POST /api/admin/commission/update {rates?, payAs?, pointsPerYuan?, inviteReward?} (ADMIN, audited) → data: the settings.
import { route } from '@/lib/http/route'
import { ZCommissionUpdateSchema } from '@/lib/invites/schemas'
import { updateInviteSettings } from '@/lib/invites/settings'

export const POST = route({ access: 'admin', body: ZCommissionUpdateSchema }, ({ user, ip, body }) => updateInviteSettings(user, ip, body))

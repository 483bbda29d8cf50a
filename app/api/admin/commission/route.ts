// GET /api/admin/commission → data { rates, payAs, pointsPerYuan, inviteReward } (console).
import { route } from '@/lib/http/route'
import { getInviteSettings } from '@/lib/invites/settings'

export const GET = route({ access: 'console' }, () => getInviteSettings())

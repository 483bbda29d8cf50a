// GET /api/site-config/site-info → data.config: the public settings (name, logo, WX_*, MOBILE_ENABLED ...).
import { route } from '@/lib/http/route'
import { getPublicConfig } from '@/lib/site-config/get-public-config'

export const GET = route({ access: 'public' }, async () => ({ config: await getPublicConfig() }))

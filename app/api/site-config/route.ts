// GET /api/site-config: every setting for the console, grouped; secrets masked for ADMIN, absent for MANAGER.
import { route } from '@/lib/http/route'
import { listConfigForConsole } from '@/lib/site-config/list-config'

export const GET = route({ access: 'console' }, ({ user }) => listConfigForConsole(user.role))

// GET /api/admin/wall?status=PENDING|APPROVED|HIDDEN&featured=&page=&pageSize= → data.list, data.total (the console).
import { route } from '@/lib/http/route'
import { listWallForAdmin } from '@/lib/wall/moderate-work'
import { ZAdminWallQuerySchema } from '@/lib/wall/schemas'

export const GET = route({ access: 'console', query: ZAdminWallQuerySchema }, ({ query }) => listWallForAdmin(query))

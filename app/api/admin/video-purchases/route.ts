// GET /api/admin/video-purchases?page=&pageSize=&videoId=&user= (console) → data {list, total, perItem: [{videoId, title, purchases, revenue}]}.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listVideoPurchases } from '@/lib/videos/admin-videos'

const ZQuery = ZPageQuerySchema.extend({ videoId: z.string().trim().max(64).optional(), user: z.string().trim().max(64).optional() })

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => listVideoPurchases(query))

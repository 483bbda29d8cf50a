// GET /api/admin/videos?page=&pageSize=&keyword= (console) → data.list, data.total.
// POST /api/admin/videos (ADMIN, multipart: file | uploadId, poster?, posterSecond?, preview?, title, description, tags, price, kind, published) → the item.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { CREATE_BODY_LIMIT, createVideo, listAdminVideos } from '@/lib/videos/admin-videos'

const ZQuery = ZPageQuerySchema.extend({ keyword: z.string().trim().max(50).optional() })

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => listAdminVideos(query))
export const POST = route({ access: 'admin', maxBodyBytes: CREATE_BODY_LIMIT }, ({ req, user, ip }) => createVideo(user, ip, req))

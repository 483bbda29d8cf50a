// GET /api/videos/{id} (public) → the item; playUrl/downloadUrl when the caller may watch the original.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { getVideo } from '@/lib/videos/list-videos'

const ZParams = z.object({ id: z.string().min(1).max(64) })

export const GET = route({ access: 'public', params: ZParams }, ({ user, params }) => getVideo(user, params.id))

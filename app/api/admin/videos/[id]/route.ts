// PATCH /api/admin/videos/{id} (ADMIN) {title?, description?, tags?, price?, kind?, published?} → the item. DELETE → {deleted} (a bought item is only unpublished).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { deleteVideo, updateVideo } from '@/lib/videos/admin-videos'
import { ZVideoPatch } from '@/lib/videos/schemas'

const ZParams = z.object({ id: z.string().min(1).max(64) })

export const PATCH = route({ access: 'admin', params: ZParams, body: ZVideoPatch }, ({ user, ip, params, body }) => updateVideo(user, ip, params.id, body))
export const DELETE = route({ access: 'admin', params: ZParams }, ({ user, ip, params }) => deleteVideo(user, ip, params.id))

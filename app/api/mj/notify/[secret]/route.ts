// POST /api/mj/notify/{secret}: the Midjourney proxy's notifyHook (the task object). A hint that
// nudges the waiting worker after checking with the proxy; an unknown secret is a 404.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { handleMjNotify } from '@/lib/mj/handle-notify'

const ZParams = z.object({ secret: z.string().min(1).max(100) })

export const POST = route({ access: 'public', params: ZParams, body: z.unknown() }, ({ params, body }) => handleMjNotify(params.secret, body))

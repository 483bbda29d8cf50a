import { route } from '@/lib/http/route'
import { notFound } from '@/lib/http/app-error'

// An API path no route file matches: the JSON envelope 404, never the HTML page.
const unknown = route({ access: 'public' }, async () => {
  throw notFound('接口不存在')
})

export const GET = unknown
export const POST = unknown
export const PUT = unknown
export const PATCH = unknown
export const DELETE = unknown

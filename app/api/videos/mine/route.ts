// GET /api/videos/mine → data {list}: the caller's bought items, newest purchase first.
import { route } from '@/lib/http/route'
import { listMyVideos } from '@/lib/videos/list-videos'

export const GET = route({ access: 'user' }, ({ user }) => listMyVideos(user.id))

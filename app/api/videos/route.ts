// GET /api/videos?kind=free|paid&cursor=&keyword=&tag= (public) → data {list: [{id, title, kind, price, durationSec, width, height, posterUrl, previewUrl?, tags, bought?}], nextCursor}.
import { route } from '@/lib/http/route'
import { listVideos } from '@/lib/videos/list-videos'
import { ZVideoListQuery } from '@/lib/videos/schemas'

export const GET = route({ access: 'public', query: ZVideoListQuery }, ({ user, query }) => listVideos(user, query))

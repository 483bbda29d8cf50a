// GET /api/wall?cursor=&limit=&sort=new|hot&type=&q=&featured=&favorites= (public; favorites signed in) → data { list, nextCursor }: the image wall by keyset cursor.
import { route } from '@/lib/http/route'
import { listWall } from '@/lib/wall/list-wall'
import { ZWallQuerySchema } from '@/lib/wall/schemas'

export const GET = route({ access: 'public', query: ZWallQuerySchema }, ({ user, query }) => listWall(user?.id ?? null, query))

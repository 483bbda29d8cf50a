// GET /api/admin/cards?page=&pageSize=&status=&keyword=&batchId= → data.list, data.total (keys masked).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { ZPageQuerySchema } from '@/lib/http/pagination'
import { listCards } from '@/lib/cards/list-cards'
import { ZCardListQuerySchema } from '@/lib/cards/schemas'

const ZQuery = z.object({ ...ZPageQuerySchema.shape, ...ZCardListQuerySchema.shape })

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => listCards(query))

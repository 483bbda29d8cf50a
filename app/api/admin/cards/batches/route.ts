// GET /api/admin/cards/batches → data: the latest 100 import batches (id, note, points, count, times).
import { route } from '@/lib/http/route'
import { listCardBatches } from '@/lib/cards/list-cards'

export const GET = route({ access: 'console' }, () => listCardBatches())

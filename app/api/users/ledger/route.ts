// GET /api/users/ledger?cursor=&limit= : the caller's own ledger, newest first → data.list, data.nextCursor.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { zSerialId } from '@/lib/http/params'
import { listLedger } from '@/lib/ledger/list-ledger'

const ZQuery = z.object({
  cursor: zSerialId().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})

export const GET = route({ access: 'user', query: ZQuery }, ({ user, query }) => listLedger(user.id, query))

// GET /api/admin/cards/export?batchId= : CSV of ready, unclaimed keys in full and exact (ADMIN only,
// audited). X-Cards-Withheld: how many ready cards were left out (legacy keys starting with = + - @).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { exportReadyCards } from '@/lib/cards/export-cards'

const ZQuery = z.object({ batchId: z.coerce.number().int().positive().optional() })

export const GET = route({ access: 'admin', query: ZQuery }, async ({ user, ip, query }) => {
  const { csv, withheld } = await exportReadyCards(user, ip, query.batchId)
  const name = `cards-${query.batchId ?? 'all'}-${new Date().toISOString().slice(0, 10)}.csv`
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
      'X-Cards-Withheld': String(withheld),
    },
  })
})

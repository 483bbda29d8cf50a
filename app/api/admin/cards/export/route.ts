// GET /api/admin/cards/export?batchId=&onlyNew= : CSV of ready, unclaimed keys in full and exact (ADMIN only,
// audited); each card written is marked exported. onlyNew=true: only cards never exported before
// (409 when there are none). X-Cards-Withheld: how many ready cards were left out (legacy keys
// starting with = + - @); X-Cards-Exported: how many were written.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { zSerialId } from '@/lib/http/params'
import { exportReadyCards } from '@/lib/cards/export-cards'

const ZQuery = z.object({
  batchId: zSerialId().optional(),
  onlyNew: z.enum(['true', 'false']).optional(),
})

export const GET = route({ access: 'admin', query: ZQuery }, async ({ user, ip, query }) => {
  const { csv, count, withheld } = await exportReadyCards(user, ip, { batchId: query.batchId, onlyNew: query.onlyNew === 'true' })
  const name = `cards-${query.batchId ?? 'all'}-${new Date().toISOString().slice(0, 10)}.csv`
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
      'X-Cards-Withheld': String(withheld),
      'X-Cards-Exported': String(count),
    },
  })
})

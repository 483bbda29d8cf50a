// GET /api/admin/charge-records/group-by-date?from=&to= (Beijing YYYY-MM-DD) → data.list of {date, amount, count, byType, byChannel}.
import { route } from '@/lib/http/route'
import { chargeTotalsByDate } from '@/lib/analysis/day-totals'
import { ZDateRange } from '@/lib/payments/schemas'

export const GET = route({ access: 'console', query: ZDateRange }, ({ query }) => chargeTotalsByDate(query.from, query.to))

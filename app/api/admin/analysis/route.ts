// GET /api/admin/analysis?from=&to= (Beijing YYYY-MM-DD, at most 366 days) → data.days: revenue, new users, tasks, points per day.
import { route } from '@/lib/http/route'
import { siteAnalysis } from '@/lib/analysis/day-totals'
import { ZDateRange } from '@/lib/payments/schemas'

export const GET = route({ access: 'console', query: ZDateRange }, ({ query }) => siteAnalysis(query.from, query.to))

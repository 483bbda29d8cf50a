// GET /api/admin/chat-usage?days=7: answers and points per chat model and per user (top 50) → data: {days, models, users}.
import { chatUsage } from '@/lib/chat/manage-chat-models'
import { route } from '@/lib/http/route'
import { z } from '@/lib/zod'

const ZQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(7) })

export const GET = route({ access: 'console', query: ZQuery }, ({ query }) => chatUsage(query.days))

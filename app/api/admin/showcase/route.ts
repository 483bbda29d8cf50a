// GET /api/admin/showcase → every collection (empty ones too); POST {title, coverWorkId, workIds, sort} creates one (audited).
import { route } from '@/lib/http/route'
import { ZShowcaseSchema } from '@/lib/wall/schemas'
import { createShowcase, listShowcases } from '@/lib/wall/showcases'

export const GET = route({ access: 'console' }, () => listShowcases(null, { includeEmpty: true }))

export const POST = route({ access: 'console', body: ZShowcaseSchema }, ({ user, ip, body }) => createShowcase(user, ip, body))

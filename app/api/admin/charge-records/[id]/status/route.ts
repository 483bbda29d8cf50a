// POST /api/admin/charge-records/{id}/status {status, note?} (ADMIN, audited) → the record. Bookkeeping: no money moves.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { setChargeRecordStatus } from '@/lib/payments/charge-records'
import { ZChargeStatus } from '@/lib/payments/schemas'

export const POST = route(
  { access: 'admin', params: z.object({ id: z.coerce.number().int().positive() }), body: ZChargeStatus },
  ({ user, ip, params, body }) => setChargeRecordStatus(user, ip, params.id, body.status, body.note),
)

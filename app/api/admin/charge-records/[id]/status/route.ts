// POST /api/admin/charge-records/{id}/status {status, note?} (ADMIN, audited) → the record. Bookkeeping: no money moves.
import { route } from '@/lib/http/route'
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { setChargeRecordStatus } from '@/lib/payments/charge-records'
import { ZChargeStatus } from '@/lib/payments/schemas'

export const POST = route({ access: 'admin', params: ZSerialIdParamsSchema, body: ZChargeStatus }, ({ user, ip, params, body }) =>
  setChargeRecordStatus(user, ip, params.id, body.status, body.note),
)

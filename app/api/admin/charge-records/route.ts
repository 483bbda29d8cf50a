// GET /api/admin/charge-records?page=&pageSize=&userId=&type=&channel=&status=&from=&to= → data.list, data.total.
import { route } from '@/lib/http/route'
import { listChargeRecords } from '@/lib/payments/charge-records'
import { ZChargeRecordQuery } from '@/lib/payments/schemas'

export const GET = route({ access: 'console', query: ZChargeRecordQuery }, ({ query }) => listChargeRecords(query))

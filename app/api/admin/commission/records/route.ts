// GET /api/admin/commission/records?page=&pageSize=&keyword=&orderType=&status= → data.list, data.total (console).
import { route } from '@/lib/http/route'
import { listCommissionRecords } from '@/lib/invites/list-commission'
import { ZCommissionRecordQuery } from '@/lib/invites/schemas'

export const GET = route({ access: 'console', query: ZCommissionRecordQuery }, ({ query }) => listCommissionRecords(query))

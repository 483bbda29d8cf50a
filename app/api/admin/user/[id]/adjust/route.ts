// POST /api/admin/user/{id}/adjust {points?, balance?, reason, requestId}: moves a user's points or
// balance (cents) through the ledger; ADMIN only, audited, never below zero. requestId (a UUID the
// caller makes once per adjustment, the dialog when it opens) is required: a replay answers the
// first result instead of booking again; the same id with other amounts or another user is a 409.
import { z } from '@/lib/zod'
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { adjustByAdmin } from '@/lib/ledger/adjust-by-admin'

const amount = z.number().int('请输入整数').min(-1_000_000_000).max(1_000_000_000)
const ZBody = z
  .object({
    points: amount.optional(),
    balance: amount.optional(),
    reason: z.string().trim().min(1, '请填写调整原因').max(200),
    requestId: z.uuid({ error: 'requestId 必须是 UUID（每次调整生成一个）' }),
  })
  .strict()

export const POST = route({ access: 'admin', params: ZIdParamsSchema, body: ZBody }, ({ user, ip, params, body }) => adjustByAdmin(user, ip, params.id, body))

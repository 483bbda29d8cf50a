// POST /api/admin/user/{id}/adjust {points?, balance?, reason} (+ Idempotency-Key header): moves a
// user's points or balance (cents) through the ledger; ADMIN only, audited, never below zero.
// With a key (the header; older clients send a UUID as body.requestId, the header wins) a replay
// answers the first result instead of booking again, and the same key with other amounts or
// another user is a 409. Without a key the call books each time it is made.
import { z } from '@/lib/zod'
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { adjustByAdmin } from '@/lib/ledger/adjust-by-admin'
import { ZIdempotencyKeySchema } from '@/lib/tasks/schemas'

const amount = z.number().int('请输入整数').min(-1_000_000_000).max(1_000_000_000)
const ZBody = z
  .object({
    points: amount.optional(),
    balance: amount.optional(),
    reason: z.string().trim().min(1, '请填写调整原因').max(200),
    requestId: z.uuid({ error: 'requestId 必须是 UUID（每次调整生成一个）' }).optional(),
  })
  .strict()

export const POST = route({ access: 'admin', params: ZIdParamsSchema, body: ZBody }, ({ req, user, ip, params, body: { requestId, ...adjustment } }) =>
  adjustByAdmin(user, ip, params.id, adjustment, ZIdempotencyKeySchema.parse(req.headers.get('idempotency-key') ?? undefined) ?? requestId),
)

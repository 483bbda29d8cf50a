// POST /api/admin/user/{id}/adjust {points?, balance?, reason}: moves a user's points or balance
// (cents) through the ledger; ADMIN only, audited, never below zero.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { adjustByAdmin } from '@/lib/ledger/adjust-by-admin'

const ZParams = z.object({ id: z.string().min(1).max(64) })
const amount = z.number().int('请输入整数').min(-1_000_000_000).max(1_000_000_000)
const ZBody = z
  .object({ points: amount.optional(), balance: amount.optional(), reason: z.string().trim().min(1, '请填写调整原因').max(200) })
  .strict()

export const POST = route({ access: 'admin', params: ZParams, body: ZBody }, ({ user, ip, params, body }) => adjustByAdmin(user, ip, params.id, body))

// POST /api/tasks/{id}/action {customId, prompt?, maskImageId?} (+ Idempotency-Key) → data: the child
// task a Midjourney button of the caller's finished task starts, charged at that action's price.
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { ZMjActionSchema } from '@/lib/mj/params'
import { ZIdempotencyKeySchema } from '@/lib/tasks/schemas'
import { submitMjAction } from '@/lib/tasks/submit-mj-action'

export const POST = route({ access: 'user', params: ZIdParamsSchema, body: ZMjActionSchema }, ({ req, user, params, body }) =>
  submitMjAction(user.id, params.id, body, ZIdempotencyKeySchema.parse(req.headers.get('idempotency-key') ?? undefined)),
)

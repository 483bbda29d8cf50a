// PATCH /api/site-config/{name} {value}: sets one setting, validated by the registry (ADMIN only, audited).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { updateConfig } from '@/lib/site-config/update-config'

const ZParams = z.object({ name: z.string().min(1).max(64) })
const ZBody = z.object({ value: z.union([z.string(), z.number(), z.boolean()]) }).strict()

export const PATCH = route({ access: 'admin', params: ZParams, body: ZBody }, ({ user, ip, params, body }) => updateConfig(user, ip, params.name, body.value))

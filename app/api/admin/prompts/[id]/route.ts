// PATCH and DELETE /api/admin/prompts/{id} (audited).
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { deletePromptTemplate, updatePromptTemplate, ZPromptUpdateSchema } from '@/lib/prompts/prompt-templates'

const ZParams = z.object({ id: z.coerce.number().int().positive() })

export const PATCH = route({ access: 'console', params: ZParams, body: ZPromptUpdateSchema }, ({ user, ip, params, body }) => updatePromptTemplate(user, ip, params.id, body))

export const DELETE = route({ access: 'console', params: ZParams }, ({ user, ip, params }) => deletePromptTemplate(user, ip, params.id))

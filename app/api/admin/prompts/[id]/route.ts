// PATCH and DELETE /api/admin/prompts/{id} (audited).
import { ZSerialIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { deletePromptTemplate } from '@/lib/prompts/delete-prompt-template'
import { ZPromptUpdateSchema } from '@/lib/prompts/schemas'
import { updatePromptTemplate } from '@/lib/prompts/update-prompt-template'

export const PATCH = route({ access: 'console', params: ZSerialIdParamsSchema, body: ZPromptUpdateSchema }, ({ user, ip, params, body }) =>
  updatePromptTemplate(user, ip, params.id, body),
)

export const DELETE = route({ access: 'console', params: ZSerialIdParamsSchema }, ({ user, ip, params }) => deletePromptTemplate(user, ip, params.id))

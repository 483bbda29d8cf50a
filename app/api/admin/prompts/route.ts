// GET /api/admin/prompts: every prompt template. POST: creates one (audited).
import { route } from '@/lib/http/route'
import { createPromptTemplate } from '@/lib/prompts/create-prompt-template'
import { listPromptTemplates } from '@/lib/prompts/list-prompt-templates'
import { ZPromptInputSchema } from '@/lib/prompts/schemas'

export const GET = route({ access: 'console' }, () => listPromptTemplates(false))

export const POST = route({ access: 'console', body: ZPromptInputSchema }, ({ user, ip, body }) => createPromptTemplate(user, ip, body))

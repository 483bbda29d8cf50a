// GET /api/admin/prompts: every prompt template. POST: creates one (audited).
import { route } from '@/lib/http/route'
import { createPromptTemplate, listPromptTemplates, ZPromptInputSchema } from '@/lib/prompts/prompt-templates'

export const GET = route({ access: 'console' }, () => listPromptTemplates(false))

export const POST = route({ access: 'console', body: ZPromptInputSchema }, ({ user, ip, body }) => createPromptTemplate(user, ip, body))

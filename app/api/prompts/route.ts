// GET /api/prompts: the enabled prompt templates, by category.
import { route } from '@/lib/http/route'
import { listPromptTemplates } from '@/lib/prompts/list-prompt-templates'

export const GET = route({ access: 'public' }, () => listPromptTemplates(true))

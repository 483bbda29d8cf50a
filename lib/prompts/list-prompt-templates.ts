import 'server-only'
import { db } from '@/lib/db'

const ORDER = [{ category: 'asc' as const }, { sort: 'asc' as const }, { id: 'asc' as const }]

/** Every template for the console, or the enabled ones for the creation pages; by category. */
export const listPromptTemplates = (onlyEnabled: boolean) => db().promptTemplate.findMany({ where: onlyEnabled ? { enabled: true } : {}, orderBy: ORDER })

'use client'

import { useQuery } from '@tanstack/react-query'
import type { listPromptTemplates } from '@/lib/prompts/list-prompt-templates'
import type { Json } from '../hooks'
import { api } from '../request'
import { CATALOG_CACHE } from './models'

export type PromptTemplate = Json<Awaited<ReturnType<typeof listPromptTemplates>>[number]>

export const promptUrls = { prompts: '/api/prompts' } as const

export const promptKeys = { all: ['prompts'] as const }

/** The enabled prompt templates users pick from on the creation pages. */
export function usePromptTemplates() {
  return useQuery({ queryKey: promptKeys.all, queryFn: () => api.get<PromptTemplate[]>(promptUrls.prompts), ...CATALOG_CACHE })
}

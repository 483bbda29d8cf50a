'use client'

import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { listPromptTemplates } from '@/lib/prompts/list-prompt-templates'
import type { ZPromptInputSchema, ZPromptUpdateSchema } from '@/lib/prompts/schemas'
import type { Json } from '../hooks'
import { api } from '../request'
import { promptKeys } from './prompts'
import { useWrite } from './write'

export type PromptRow = Json<Awaited<ReturnType<typeof listPromptTemplates>>[number]>

export const adminPromptUrls = { list: '/api/admin/prompts', prompt: (id: number) => `/api/admin/prompts/${id}` } as const

export const adminPromptKeys = { all: ['admin-prompts'] as const }

/** Every prompt template, enabled or not. */
export function useAdminPrompts() {
  return useQuery({ queryKey: adminPromptKeys.all, queryFn: () => api.get<PromptRow[]>(adminPromptUrls.list) })
}

const usePromptsWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminPromptKeys.all, promptKeys.all])

export const useCreatePrompt = () => usePromptsWrite((body: z.input<typeof ZPromptInputSchema>) => api.post(adminPromptUrls.list, body))

export const useUpdatePrompt = () =>
  usePromptsWrite(({ id, body }: { id: number; body: z.input<typeof ZPromptUpdateSchema> }) => api.patch(adminPromptUrls.prompt(id), body))

export const useDeletePrompt = () => usePromptsWrite((id: number) => api.delete(adminPromptUrls.prompt(id)))

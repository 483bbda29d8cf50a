'use client'

import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { MAIN_NAV, type NavItem } from '@/lib/navigation'

export type ModelOption = { id: string; name: string; type: 'STABLE_DIFFUSION' | 'MID_JOURNEY'; backend: string; prices: Record<string, number> }
export type PromptTemplate = { id: number; category: string; title: string; prompt: string; negativePrompt: string; cover: string | null }
export type CustomModelOption = {
  id: number
  name: string
  triggerWords: string
  cover: string | null
  price: number
  defaultParams: Record<string, unknown>
  model: { name: string }
}

const STATIC = { staleTime: 60_000, gcTime: 5 * 60_000 }

/** Enabled models (with prices per image by task type) for the creation pages. */
export function useModels() {
  return useQuery({ queryKey: queryKeys.models, queryFn: () => api.get<ModelOption[]>('/api/models'), ...STATIC })
}

export function usePromptTemplates() {
  return useQuery({ queryKey: queryKeys.prompts, queryFn: () => api.get<PromptTemplate[]>('/api/prompts'), ...STATIC })
}

export function useCustomModels() {
  return useQuery({ queryKey: queryKeys.customModels, queryFn: () => api.get<CustomModelOption[]>('/api/custom-models'), ...STATIC })
}

/** Whether an enabled Midjourney model exists (the MJ pages and tabs show only then); undefined while loading. */
export function hasMjModel(models: ModelOption[] | undefined): boolean | undefined {
  return models?.some((m) => m.type === 'MID_JOURNEY')
}

/** The main navigation without what nothing can run yet (MJ 绘画 before an MJ model exists). */
export function useMainNav(): NavItem[] {
  const hasMj = hasMjModel(useModels().data)
  return MAIN_NAV.filter((item) => item.needs !== 'mj-model' || hasMj === true)
}

/** The models that offer a task type, cheapest first shown in their configured order. */
export function modelsFor(models: ModelOption[] | undefined, taskType: string): ModelOption[] {
  return (models ?? []).filter((m) => typeof m.prices[taskType] === 'number')
}

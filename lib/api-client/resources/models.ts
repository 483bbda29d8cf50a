'use client'

import { useQuery } from '@tanstack/react-query'
import type { listAvailableModels } from '@/lib/models/list-available-models'
import type { Json } from '../hooks'
import { api } from '../request'

/** An enabled model as the creation pages see it; prices are points by task type (or MJ action). */
export type ModelOption = Omit<Json<Awaited<ReturnType<typeof listAvailableModels>>[number]>, 'prices'> & { prices: Record<string, number> }

export const modelUrls = { models: '/api/models' } as const

export const modelKeys = { all: ['models'] as const }

/** The catalogue changes rarely: kept a minute, and for five after the last page that shows it. */
export const CATALOG_CACHE = { staleTime: 60_000, gcTime: 5 * 60_000 }

/** Enabled models (with prices per image by task type) for the creation pages. */
export function useModels() {
  return useQuery({ queryKey: modelKeys.all, queryFn: () => api.get<ModelOption[]>(modelUrls.models), ...CATALOG_CACHE })
}

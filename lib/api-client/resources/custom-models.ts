'use client'

import { useQuery } from '@tanstack/react-query'
import type { listOfferedCustomModels } from '@/lib/custom-models/list-custom-models'
import type { Json } from '../hooks'
import { api } from '../request'
import { CATALOG_CACHE } from './models'

/** A style preset (小狸猫) as users see it. */
export type CustomModelOption = Json<Awaited<ReturnType<typeof listOfferedCustomModels>>[number]>

export const customModelUrls = { customModels: '/api/custom-models' } as const

export const customModelKeys = { all: ['custom-models'] as const }

/** The enabled style presets with their prices. */
export function useCustomModels() {
  return useQuery({ queryKey: customModelKeys.all, queryFn: () => api.get<CustomModelOption[]>(customModelUrls.customModels), ...CATALOG_CACHE })
}

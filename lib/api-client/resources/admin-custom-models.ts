'use client'

import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { listCustomModels } from '@/lib/custom-models/list-custom-models'
import type { ZCustomModelInputSchema, ZCustomModelUpdateSchema } from '@/lib/custom-models/schemas'
import type { Json } from '../hooks'
import { api } from '../request'
import { customModelKeys } from './custom-models'
import { useWrite } from './write'

export type CustomModelRow = Json<Awaited<ReturnType<typeof listCustomModels>>[number]>

export const adminCustomModelUrls = { list: '/api/admin/custom-models', preset: (id: number) => `/api/admin/custom-models/${id}` } as const

export const adminCustomModelKeys = { all: ['admin-custom-models'] as const }

/** Every style preset with its backend model's name. */
export function useAdminCustomModels() {
  return useQuery({ queryKey: adminCustomModelKeys.all, queryFn: () => api.get<CustomModelRow[]>(adminCustomModelUrls.list) })
}

const usePresetsWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminCustomModelKeys.all, customModelKeys.all])

export const useCreateCustomModel = () => usePresetsWrite((body: z.input<typeof ZCustomModelInputSchema>) => api.post(adminCustomModelUrls.list, body))

export const useUpdateCustomModel = () =>
  usePresetsWrite(({ id, body }: { id: number; body: z.input<typeof ZCustomModelUpdateSchema> }) => api.patch(adminCustomModelUrls.preset(id), body))

export const useDeleteCustomModel = () => usePresetsWrite((id: number) => api.delete(adminCustomModelUrls.preset(id)))

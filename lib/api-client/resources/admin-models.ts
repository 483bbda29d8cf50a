'use client'

import { useQuery, type Query } from '@tanstack/react-query'
import type { z } from 'zod'
import type { AdminModelRow } from '@/lib/models/admin-model-views'
import type { ZModelInputSchema, ZModelUpdateSchema } from '@/lib/models/schemas'
import type { testModel } from '@/lib/models/test-model'
import type { Json } from '../hooks'
import { api } from '../request'
import { modelKeys } from './models'
import { useWrite } from './write'

export type ModelRow = Json<AdminModelRow>
export type ModelInput = z.input<typeof ZModelInputSchema>
export type ModelTestAnswer = Awaited<ReturnType<typeof testModel>>

export const adminModelUrls = {
  list: '/api/admin/models',
  model: (id: string) => `/api/admin/models/${id}`,
  test: (id: string) => `/api/admin/models/${id}/test`,
} as const

export const adminModelKeys = {
  all: ['admin-models'] as const,
  list: () => [...adminModelKeys.all, 'list'] as const,
  test: (id: string) => [...adminModelKeys.all, 'test', id] as const,
}

type ListInterval = (query: Query<ModelRow[], Error, ModelRow[], readonly unknown[]>) => number | false

/** Every backend with its prices, health and load; `refetchInterval` follows the queues while they move. */
export function useAdminModels(refetchInterval?: ListInterval) {
  return useQuery({ queryKey: adminModelKeys.list(), queryFn: () => api.get<ModelRow[]>(adminModelUrls.list), refetchInterval })
}

/** Asks the saved configuration's backend for its health (each time the query runs). */
export function useModelTest(id: string) {
  return useQuery({
    queryKey: adminModelKeys.test(id),
    queryFn: () => api.post<ModelTestAnswer>(adminModelUrls.test(id)),
    placeholderData: undefined,
    staleTime: 0,
  })
}

// A change shows in the console's list and in what the creation pages offer.
const useModelsWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminModelKeys.all, modelKeys.all])

export const useCreateModel = () => useModelsWrite((body: ModelInput) => api.post(adminModelUrls.list, body))

export const useUpdateModel = () =>
  useModelsWrite(({ id, body }: { id: string; body: z.input<typeof ZModelUpdateSchema> }) => api.patch(adminModelUrls.model(id), body))

export const useDeleteModel = () => useModelsWrite((id: string) => api.delete(adminModelUrls.model(id)))

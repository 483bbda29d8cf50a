'use client'

import { queryOptions, useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { AdminCardRow } from '@/lib/cards/card-views'
import type { CardBatchRow } from '@/lib/cards/list-cards'
import type { ZCardImportSchema } from '@/lib/cards/schemas'
import type { Page } from '@/lib/http/pagination'
import type { Json } from '../hooks'
import { api } from '../request'
import { useWrite } from './write'

export type CardRow = Json<AdminCardRow>
export type CardBatchJson = Json<CardBatchRow>
export type CardListParams = { page: number; pageSize: number; status?: string; keyword?: string; batchId?: string }

export const adminCardUrls = {
  list: '/api/admin/cards',
  batches: '/api/admin/cards/batches',
  import: '/api/admin/cards/batch_import',
  export: '/api/admin/cards/export',
  assign: (id: number) => `/api/admin/cards/${id}/assign`,
  disable: (id: number) => `/api/admin/cards/${id}/disable`,
} as const

export const adminCardKeys = {
  all: ['admin-cards'] as const,
  list: (params: CardListParams) => [...adminCardKeys.all, 'list', params] as const,
  batches: () => [...adminCardKeys.all, 'batches'] as const,
}

export const adminCardQueries = {
  list: (params: CardListParams) => queryOptions({ queryKey: adminCardKeys.list(params), queryFn: () => api.get<Page<CardRow>>(adminCardUrls.list, params) }),
}

/** The import batches, newest first, for the batch filter. */
export function useCardBatches() {
  return useQuery({ queryKey: adminCardKeys.batches(), queryFn: () => api.get<CardBatchJson[]>(adminCardUrls.batches) })
}

const useCardsWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminCardKeys.all])

/** Imports keys as one batch (checked in the background). Silent: the dialog names a failure itself. */
export const useImportCards = () =>
  useCardsWrite((body: z.input<typeof ZCardImportSchema>) => api.post<{ batchId: number }>(adminCardUrls.import, body, { silent: true }))

/** Hands a ready card to a user. */
export const useAssignCard = () => useCardsWrite(({ id, userId }: { id: number; userId: string }) => api.post(adminCardUrls.assign(id), { userId }))

/** Stops a ready card from being redeemed, or lets it be again. */
export const useDisableCard = () => useCardsWrite(({ id, disabled }: { id: number; disabled: boolean }) => api.post(adminCardUrls.disable(id), { disabled }))

/** The ready, unused keys (of one batch, when given) as a CSV file (only those never exported before, when asked); the list then shows them 已导出. */
export const useExportCards = () =>
  useCardsWrite(({ onlyNew, batchId }: { onlyNew: boolean; batchId?: number }) => api.download(adminCardUrls.export, { onlyNew, batchId }))

'use client'

import { useMutation, useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { AdminChatModelRow, ChatUsageRow, ZChatModelInputSchema, ZChatModelUpdateSchema } from '@/lib/chat/schemas'
import { api } from '../request'
import { chatKeys } from './chat'
import { useWrite } from './write'

export type { AdminChatModelRow, ChatUsageRow }

export const adminChatModelUrls = {
  list: '/api/admin/chat-models',
  model: (id: string) => `/api/admin/chat-models/${id}`,
  test: (id: string) => `/api/admin/chat-models/${id}/test`,
  usage: '/api/admin/chat-usage',
} as const

export const adminChatModelKeys = { all: ['admin-chat-models'] as const, usage: (days: number) => ['admin-chat-usage', days] as const }

export function useAdminChatModels() {
  return useQuery({ queryKey: adminChatModelKeys.all, queryFn: () => api.get<AdminChatModelRow[]>(adminChatModelUrls.list) })
}

export function useChatUsage(days: number) {
  return useQuery({
    queryKey: adminChatModelKeys.usage(days),
    queryFn: () => api.get<{ days: number; models: ChatUsageRow[]; users: ChatUsageRow[] }>(adminChatModelUrls.usage, { days }),
  })
}

const useChatModelsWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminChatModelKeys.all, chatKeys.models()])

export const useCreateChatModel = () =>
  useChatModelsWrite((body: z.input<typeof ZChatModelInputSchema>) => api.post<{ id: string }>(adminChatModelUrls.list, body))

export const useUpdateChatModel = () =>
  useChatModelsWrite(({ id, body }: { id: string; body: z.input<typeof ZChatModelUpdateSchema> }) => api.patch(adminChatModelUrls.model(id), body))

export const useDeleteChatModel = () => useChatModelsWrite((id: string) => api.delete(adminChatModelUrls.model(id)))

/** 测试连接: the model's first words, or why it failed. */
export function useTestChatModel() {
  return useMutation({ mutationFn: (id: string) => api.post<{ ok: boolean; message: string }>(adminChatModelUrls.test(id)) })
}

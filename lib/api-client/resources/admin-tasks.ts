'use client'

import { queryOptions, useQuery, type Query } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import type { AdminTaskRow } from '@/lib/tasks/admin-task-views'
import type { getTaskForAdmin } from '@/lib/tasks/get-task-for-admin'
import type { Json } from '../hooks'
import { api } from '../request'
import { useWrite } from './write'

export type AdminTaskJson = Json<AdminTaskRow>
export type AdminTaskDetail = Json<Awaited<ReturnType<typeof getTaskForAdmin>>>
export type AdminTaskListParams = { page: number; pageSize: number; type?: string; status?: string; user?: string; from?: string; to?: string }

export const adminTaskUrls = {
  list: '/api/admin/tasks',
  task: (id: string) => `/api/admin/tasks/${id}`,
  cancel: (id: string) => `/api/admin/tasks/${id}/cancel`,
  recommend: (id: string, on: boolean) => `/api/admin/tasks/${on ? 'recommend' : 'un_recommend'}/${id}`,
} as const

export const adminTaskKeys = {
  all: ['admin-tasks'] as const,
  list: (params: AdminTaskListParams) => [...adminTaskKeys.all, 'list', params] as const,
  detail: (id: string) => [...adminTaskKeys.all, 'detail', id] as const,
}

export const adminTaskQueries = {
  list: (params: AdminTaskListParams) =>
    queryOptions({ queryKey: adminTaskKeys.list(params), queryFn: () => api.get<Page<AdminTaskJson>>(adminTaskUrls.list, params) }),
}

/** One task with everything about it (parameters, attempts, backend answers, ledger rows). */
export function useAdminTask(id: string, refetchInterval: (query: Query<AdminTaskDetail, Error, AdminTaskDetail, readonly unknown[]>) => number | false) {
  return useQuery({
    queryKey: adminTaskKeys.detail(id),
    queryFn: () => api.get<AdminTaskDetail>(adminTaskUrls.task(id)),
    placeholderData: undefined,
    refetchInterval,
  })
}

const useTasksWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminTaskKeys.all])

/** Cancels a running task; its points go back to the user. */
export const useCancelAdminTask = () => useTasksWrite((id: string) => api.post(adminTaskUrls.cancel(id)))

/** Puts a finished task on the image wall, or takes it off. */
export const useRecommendTask = () => useTasksWrite(({ id, on }: { id: string; on: boolean }) => api.post(adminTaskUrls.recommend(id, on)))

'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Page } from '@/lib/http/pagination'
import type { MjModelView } from '@/lib/mj/mj-models'
import type { MjTaskNode } from '@/lib/tasks/list-mj-tasks'
import type { Json } from '../hooks'
import { api } from '../request'
import { CATALOG_CACHE } from './models'
import { profileKeys } from './profile'
import { TASK_POLL_MS, taskKeys, taskUrls, useIdempotentSubmit, type TaskJson } from './tasks'

export type MjNodeJson = Json<MjTaskNode>
export type PressBody = { customId: string; prompt?: string; maskImageId?: string }

export const mjUrls = { models: '/api/mj/models', tasks: '/api/mj/tasks' } as const

export const mjKeys = {
  all: ['mj'] as const,
  models: () => [...mjKeys.all, 'models'] as const,
  trees: () => [...mjKeys.all, 'trees'] as const,
  treePage: (params: { page: number; pageSize: number }) => [...mjKeys.trees(), params] as const,
}

/** Enabled Midjourney models: prices per action and the speed modes each offers. */
export function useMjModels() {
  return useQuery({ queryKey: mjKeys.models(), queryFn: () => api.get<MjModelView[]>(mjUrls.models), ...CATALOG_CACHE })
}

const hasPending = (nodes: MjNodeJson[]): boolean => nodes.some((n) => n.status === 'PENDING' || hasPending(n.children))

/** The user's Midjourney work as trees, refreshed while anything in them runs. */
export function useMjTrees(page: number, pageSize: number) {
  const params = { page, pageSize }
  return useQuery({
    queryKey: mjKeys.treePage(params),
    queryFn: () => api.get<Page<MjNodeJson>>(mjUrls.tasks, params),
    refetchInterval: (q) => (q.state.data && hasPending(q.state.data.list) ? TASK_POLL_MS * 1.33 : false),
  })
}

/** After an MJ submission, a press or a cancel: the points and the trees (and the caller's task lists). */
export function useRefreshMj() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: profileKeys.all }),
      queryClient.invalidateQueries({ queryKey: mjKeys.trees() }),
      queryClient.invalidateQueries({ queryKey: taskKeys.lists() }),
    ])
}

/** Presses a button of a finished task: a child task, charged once per press (Idempotency-Key). */
export function usePressButton() {
  const refresh = useRefreshMj()
  const submit = useIdempotentSubmit(
    ({ taskId, body }: { taskId: string; body: PressBody }, key) => api.post<TaskJson>(taskUrls.action(taskId), body, { headers: { 'Idempotency-Key': key } }),
    refresh,
  )
  return (taskId: string, body: PressBody) => submit({ taskId, body })
}

'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef } from 'react'
import type { Json } from '@/lib/api-client/hooks'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { newRequestId } from '@/lib/api-client/request-id'
import type { Page } from '@/lib/http/pagination'
import type { MjTaskNode } from '@/lib/tasks/list-mj-tasks'
import type { MjModelView } from '@/lib/mj/mj-models'
import { TASK_POLL_MS, type TaskJson } from '@/components/create/use-task'

export type MjNodeJson = Json<MjTaskNode>

/** Enabled Midjourney models: prices per action and the speed modes each offers. */
export function useMjModels() {
  return useQuery({ queryKey: queryKeys.mjModels, queryFn: () => api.get<MjModelView[]>('/api/mj/models'), staleTime: 60_000, gcTime: 5 * 60_000 })
}

const hasPending = (nodes: MjNodeJson[]): boolean => nodes.some((n) => n.status === 'PENDING' || hasPending(n.children))

/** The user's Midjourney work as trees, refreshed while anything in them runs. */
export function useMjTrees(page: number, pageSize: number) {
  const params = { page, pageSize }
  return useQuery({
    queryKey: queryKeys.mjTasks(params),
    queryFn: () => api.get<Page<MjNodeJson>>('/api/mj/tasks', params),
    refetchInterval: (q) => (q.state.data && hasPending(q.state.data.list) ? TASK_POLL_MS * 1.33 : false),
  })
}

export type PressBody = { customId: string; prompt?: string; maskImageId?: string }

/**
 * Presses a button of a finished task. Like a form submission, one Idempotency-Key per
 * press: a double click or a retry of the same press is charged once.
 */
export function usePressButton() {
  const queryClient = useQueryClient()
  const pending = useRef<{ body: string; key: string } | null>(null)
  return useCallback(
    async (taskId: string, body: PressBody) => {
      const text = JSON.stringify([taskId, body])
      if (pending.current?.body !== text) pending.current = { body: text, key: newRequestId() }
      const task = await api.post<TaskJson>(`/api/tasks/${taskId}/action`, body, { headers: { 'Idempotency-Key': pending.current.key } })
      pending.current = null
      await refreshMj(queryClient)
      return task
    },
    [queryClient],
  )
}

export function refreshMj(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.profile }), queryClient.invalidateQueries({ queryKey: ['mj-tasks'] })])
}

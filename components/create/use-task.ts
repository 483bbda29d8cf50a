'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef } from 'react'
import type { Json } from '@/lib/api-client/hooks'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { newRequestId } from '@/lib/api-client/request-id'
import type { MyTaskView } from '@/lib/tasks/list-tasks'
import type { TaskView } from '@/lib/tasks/task-views'
import { useTaskEvents } from './use-task-events'

/** A task from the list, or (with its queue position and waiting note) from GET /api/tasks/{id}. */
export type TaskJson = Json<TaskView> & Partial<Pick<MyTaskView, 'queuePosition' | 'waitingNote'>>

/** How often a page asks about a task that is still running (the issue allows at most every 2 s). */
export const TASK_POLL_MS = 1500

/** While the event stream is up, a slow look anyway (a queue position moves without an event). */
const TASK_LIVE_POLL_MS = 10_000

/** One task, pushed by the event stream while it is PENDING (polled when the stream is down). */
export function useTask(id: string | null) {
  const live = useRef(false)
  const query = useQuery({
    queryKey: queryKeys.task(id ?? ''),
    queryFn: () => api.get<TaskJson>(`/api/tasks/${id}`),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data?.status === 'PENDING' ? (live.current ? TASK_LIVE_POLL_MS : TASK_POLL_MS) : false),
    placeholderData: undefined,
  })
  const connected = useTaskEvents(Boolean(id) && query.data?.status === 'PENDING')
  useEffect(() => {
    live.current = connected
  }, [connected])
  return query
}

/**
 * Submits a task. One Idempotency-Key per form submission: a double click or a retry
 * after a network error sends the same key, so the server charges once.
 */
export function useSubmitTask() {
  const queryClient = useQueryClient()
  const pending = useRef<{ body: string; key: string } | null>(null)
  return useCallback(
    async (body: { type: string; modelId?: string; params: Record<string, unknown> }) => {
      const text = JSON.stringify(body)
      if (pending.current?.body !== text) pending.current = { body: text, key: newRequestId() }
      const task = await api.post<TaskJson>('/api/tasks', body, { headers: { 'Idempotency-Key': pending.current.key } })
      pending.current = null
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.profile }), queryClient.invalidateQueries({ queryKey: ['my-tasks'] })])
      return task
    },
    [queryClient],
  )
}

export async function cancelTask(id: string): Promise<TaskJson> {
  return api.post<TaskJson>(`/api/tasks/${id}/cancel`)
}

'use client'

import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { z } from 'zod'
import type { Page } from '@/lib/http/pagination'
import type { MyTaskView } from '@/lib/tasks/list-tasks'
import type { ZSubmitTaskSchema } from '@/lib/tasks/schemas'
import type { TaskView } from '@/lib/tasks/task-views'
import { readEventStream } from '../event-stream'
import type { Json } from '../hooks'
import { api } from '../request'
import { newRequestId } from '../request-id'
import { profileKeys } from './profile'

/** A task from the list, or (with its queue position and waiting note) from GET /api/tasks/{id}. */
export type TaskJson = Json<TaskView> & Partial<Pick<MyTaskView, 'queuePosition' | 'waitingNote'>>
/** The server checks `type` against its task types; pages pass it on as they got it. */
export type SubmitTaskBody = Omit<z.input<typeof ZSubmitTaskSchema>, 'type'> & { type: string }
export type MyTasksParams = { page: number; pageSize: number; status?: string; type?: string }

export const taskUrls = {
  tasks: '/api/tasks',
  task: (id: string) => `/api/tasks/${id}`,
  cancel: (id: string) => `/api/tasks/${id}/cancel`,
  action: (id: string) => `/api/tasks/${id}/action`,
  events: '/api/tasks/events',
} as const

export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (params: MyTasksParams) => [...taskKeys.lists(), params] as const,
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
}

/** How often a page asks about a task that is still running (the issue allows at most every 2 s). */
export const TASK_POLL_MS = 1500

type Interval<T> = (query: Query<T, Error, T, readonly unknown[]>) => number | false

/** One of the caller's tasks; `refetchInterval` decides how it is followed while it runs. */
export function useTaskDetail(id: string | null, refetchInterval: Interval<TaskJson>) {
  const query = useQuery({
    queryKey: taskKeys.detail(id ?? ''),
    queryFn: () => api.get<TaskJson>(taskUrls.task(id!)),
    enabled: Boolean(id),
    refetchInterval,
    placeholderData: undefined,
  })
  useRefreshPointsWhenSettled(query.data ? [query.data] : undefined)
  return query
}

/** The caller's tasks, a page at a time, refreshed while any of them runs. */
export function useMyTasks(params: MyTasksParams) {
  const query = useQuery({
    queryKey: taskKeys.list(params),
    queryFn: () => api.get<Page<TaskJson>>(taskUrls.tasks, params),
    refetchInterval: (q) => (q.state.data?.list.some((t) => t.status === 'PENDING') ? TASK_POLL_MS * 1.33 : false),
  })
  useRefreshPointsWhenSettled(query.data?.list)
  return query
}

/**
 * A task seen running here and then seen ended, however the end was seen (a poll, the
 * event stream, a list): a failure refunded its points, so the points shown are reloaded.
 */
function useRefreshPointsWhenSettled(tasks: readonly TaskJson[] | undefined) {
  const queryClient = useQueryClient()
  const running = useRef(new Set<string>())
  useEffect(() => {
    let settled = false
    for (const task of tasks ?? []) {
      if (task.status === 'PENDING') running.current.add(task.id)
      else if (running.current.delete(task.id)) settled = true
    }
    // A read already on its way may have been answered before this refund: asked again.
    if (settled) void queryClient.invalidateQueries({ queryKey: profileKeys.all })
  }, [tasks, queryClient])
}

const SUBMITTED_TASK_KEPT_MS = 30_000

/**
 * A write that costs points, sent with an Idempotency-Key: one key per submission, so a
 * double click or a retry after a network error of the same body is charged once.
 */
export function useIdempotentSubmit<Body>(send: (body: Body, key: string) => Promise<TaskJson>, onDone: () => Promise<unknown>) {
  const queryClient = useQueryClient()
  const pending = useRef<{ body: string; key: string } | null>(null)
  const mutation = useMutation({
    mutationFn: async (body: Body) => {
      const text = JSON.stringify(body)
      if (pending.current?.body !== text) pending.current = { body: text, key: newRequestId() }
      const task = await send(body, pending.current.key)
      pending.current = null
      // The page follows the task from this answer: a first read of it that fails then leaves
      // a running task that is polled again, not an empty result as if nothing was submitted.
      // Kept a while unwatched (the client's default drops such a query at once): the page
      // starts watching only after the points and lists have been refreshed.
      void queryClient.prefetchQuery({ queryKey: taskKeys.detail(task.id), queryFn: () => task, gcTime: SUBMITTED_TASK_KEPT_MS })
      return task
    },
    onSuccess: onDone,
  })
  return mutation.mutateAsync
}

/** Submits a task (charged and queued); refreshes the points and the lists. */
export function useSubmitTask() {
  const queryClient = useQueryClient()
  return useIdempotentSubmit(
    (body: SubmitTaskBody, key) => api.post<TaskJson>(taskUrls.tasks, body, { headers: { 'Idempotency-Key': key } }),
    () => Promise.all([queryClient.invalidateQueries({ queryKey: profileKeys.all }), queryClient.invalidateQueries({ queryKey: taskKeys.lists() })]),
  )
}

/** Cancels a running task of the caller's (the points come back). */
export function useCancelTask() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.post<TaskJson>(taskUrls.cancel(id)),
    onSuccess: (_task, id) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: taskKeys.detail(id) }), queryClient.invalidateQueries({ queryKey: profileKeys.all })]),
  })
}

/** GET /api/tasks/events: every change of the caller's tasks, until `signal` aborts or the stream breaks. */
export function readTaskEvents(onTask: (task: TaskJson) => void, signal: AbortSignal, onOpen: () => void): Promise<void> {
  return readEventStream(taskUrls.events, (e) => e.event === 'task' && onTask(JSON.parse(e.data) as TaskJson), signal, onOpen)
}

'use client'

import { useEffect, useRef } from 'react'
import { TASK_POLL_MS, useTaskDetail } from '@/lib/api-client/resources/tasks'
import { useTaskEvents } from './use-task-events'

/** While the event stream is up, a slow look anyway (a queue position moves without an event). */
const TASK_LIVE_POLL_MS = 10_000

/** One task, pushed by the event stream while it is PENDING (polled when the stream is down). */
export function useTask(id: string | null) {
  const live = useRef(false)
  const query = useTaskDetail(id, (q) => (q.state.data?.status === 'PENDING' ? (live.current ? TASK_LIVE_POLL_MS : TASK_POLL_MS) : false))
  const running = Boolean(id) && query.data?.status === 'PENDING'
  const connected = useTaskEvents(running)
  const { refetch } = query
  useEffect(() => {
    // The stream broke while the task runs: look now, and that answer sets the quick interval
    // again (the one set while the stream was up would first wait its 10 s).
    if (live.current && !connected && running) void refetch()
    live.current = connected
  }, [connected, running, refetch])
  return query
}

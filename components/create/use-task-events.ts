'use client'

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { profileKeys } from '@/lib/api-client/resources/profile'
import { readTaskEvents, taskKeys, type TaskJson } from '@/lib/api-client/resources/tasks'

const RECONNECT_MS = 3000

/**
 * While `enabled`, keeps GET /api/tasks/events open and writes each pushed task into the
 * query cache, so every stage shows as it happens; says whether the stream is up (the
 * page polls only while it is not). A task that ends refreshes the points and the history.
 */
export function useTaskEvents(enabled: boolean): boolean {
  const queryClient = useQueryClient()
  const [connected, setConnected] = useState(false)

  useEffect(() => {
    if (!enabled) return
    const stop = new AbortController()
    const onTask = (task: TaskJson) => {
      const before = queryClient.getQueryData<TaskJson>(taskKeys.detail(task.id))
      queryClient.setQueryData(taskKeys.detail(task.id), task)
      if (before?.status === 'PENDING' && task.status !== 'PENDING') {
        void queryClient.invalidateQueries({ queryKey: profileKeys.all })
        void queryClient.invalidateQueries({ queryKey: taskKeys.lists() })
      }
    }
    void (async () => {
      while (!stop.signal.aborted) {
        try {
          // Up once the server has accepted it: a refused stream never counts as up, so polling goes on.
          await readTaskEvents(onTask, stop.signal, () => setConnected(true))
        } catch {
          // Broken or refused: polling takes over until the stream is back.
        }
        setConnected(false)
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS))
      }
    })()
    return () => {
      stop.abort()
      setConnected(false)
    }
  }, [enabled, queryClient])

  return connected
}

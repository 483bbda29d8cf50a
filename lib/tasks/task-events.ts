import 'server-only'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { listenOnChannel } from '@/lib/signals/listen'
import { getMyTask, type MyTaskView } from './list-tasks'

/** A database trigger announces each change a page shows as '<userId>:<taskId>' on this channel. */
export const TASK_EVENTS_CHANNEL = 'aiimg_task_events'
/** The embedded database passes no notifications between connections: it is looked at this often instead. */
const EMBEDDED_LOOK_MS = 400
/** With notifications, a slow look too: queue positions move without one, and one may be lost while reconnecting. */
const SAFETY_LOOK_MS = 10_000
/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000

type Listener = (taskId: string) => void
type Feed = { listeners: Map<string, Set<Listener>> }

// One LISTEN connection per process, shared by every open stream (on globalThis: Next.js
// bundles route handlers separately, each with its own module state).
const shared = globalThis as unknown as { aiimgTaskFeed?: Feed }

function feed(): Feed {
  if (shared.aiimgTaskFeed) return shared.aiimgTaskFeed
  const listeners = new Map<string, Set<Listener>>()
  shared.aiimgTaskFeed = { listeners }
  listenOnChannel(env().DATABASE_URL, TASK_EVENTS_CHANNEL, (payload) => {
    const [userId, taskId] = payload.split(':')
    if (userId && taskId) for (const listener of listeners.get(userId) ?? []) listener(taskId)
  })
  return shared.aiimgTaskFeed
}

function watchUserTasks(userId: string, listener: Listener): () => void {
  const { listeners } = feed()
  const own = listeners.get(userId) ?? new Set<Listener>()
  listeners.set(userId, own.add(listener))
  return () => {
    own.delete(listener)
    if (own.size === 0) listeners.delete(userId)
  }
}

/** What a page shows of a task: a change in any of these is worth an event. */
const shownState = (t: MyTaskView) => JSON.stringify([t.status, t.stage, t.progress, t.previewUrl, t.results.length, t.queuePosition, t.waitingNote])

/**
 * The caller's task changes as server-sent events (`event: task`, data: the task as
 * GET /api/tasks/{id} shows it): first every task still running, then each change as
 * it commits. Ends when the client goes away, or at the first look after its session ended
 * (a sign-out everywhere, a new password, a ban, the token's expiry): the session is read
 * again before each look, from the per-process cache that every such change empties.
 */
export function openTaskEventStream(userId: string, signal: AbortSignal, isStillSignedIn: () => Promise<boolean>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  /** What was last sent of each task, and whether it was still running then. */
  const sent = new Map<string, { state: string; running: boolean }>()
  let closed = false
  let looking: Promise<void> = Promise.resolve()
  const cleanups: (() => void)[] = []

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text))
      }
      const close = () => {
        if (closed) return
        closed = true
        for (const cleanup of cleanups) cleanup()
        try {
          controller.close()
        } catch {
          // already cancelled by the reader
        }
      }
      /** Sends what changed of the tasks named, or (without names) of every running task and those running at the last look. */
      const look = (named?: string[]) => {
        looking = looking
          .then(async () => {
            if (closed) return
            if (!(await isStillSignedIn())) return close()
            const ids = named ?? [
              ...(await db().task.findMany({ where: { userId, status: 'PENDING' }, select: { id: true } })).map((t) => t.id),
              ...[...sent].filter(([, last]) => last.running).map(([id]) => id),
            ]
            for (const id of new Set(ids)) {
              const task = await getMyTask(userId, id).then(
                (t) => t.value,
                () => null,
              )
              if (!task || closed) continue
              const state = shownState(task)
              if (sent.get(id)?.state === state) continue
              sent.set(id, { state, running: task.status === 'PENDING' })
              write(`event: task\ndata: ${JSON.stringify(task)}\n\n`)
            }
          })
          .catch((error: unknown) => console.error('[task-events] look failed', error))
      }

      write('retry: 3000\n\n')
      const embedded = env().EMBEDDED_DATABASE
      if (!embedded) cleanups.push(watchUserTasks(userId, (taskId) => look([taskId])))
      const timer = setInterval(() => look(), embedded ? EMBEDDED_LOOK_MS : SAFETY_LOOK_MS)
      const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS)
      cleanups.push(
        () => clearInterval(timer),
        () => clearInterval(keepalive),
      )
      signal.addEventListener('abort', close, { once: true })
      look()
    },
    cancel() {
      closed = true
      for (const cleanup of cleanups) cleanup()
    },
  })
}

// GET /api/tasks/events (Authorization header as usual) → text/event-stream: `event: task`
// with the task as GET /api/tasks/{id} shows it (id, status, stage, progress, results ...),
// first for every running task, then on each change. Read it with a streaming fetch. It ends
// once the token stops being valid (sign-out everywhere, password change, ban, expiry).
import { resolveSessionUser } from '@/lib/auth/session'
import { route } from '@/lib/http/route'
import { openTaskEventStream } from '@/lib/tasks/task-events'

export const dynamic = 'force-dynamic'

export const GET = route({ access: 'user' }, async ({ req, user }) => {
  const isStillSignedIn = async () => (await resolveSessionUser(req.headers))?.id === user.id
  return new Response(openTaskEventStream(user.id, req.signal, isStillSignedIn), {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'private, no-cache, no-transform',
      // nginx would otherwise buffer the stream
      'X-Accel-Buffering': 'no',
    },
  })
})

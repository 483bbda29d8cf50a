import { createParser } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import * as eventsRoute from '@/app/api/tasks/events/route'
import * as tasksRoute from '@/app/api/tasks/route'
import * as loginRoute from '@/app/api/auth/login/route'
import * as logoutRoute from '@/app/api/auth/logout/route'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, drainQueue } from '../helpers/tasks'

type Pushed = { id: string; status: string; stage: string; progress: number; results: unknown[] }

/** Opens GET /api/tasks/events as a browser's streaming fetch would and collects its task events. */
async function openStream(token: string) {
  const stop = new AbortController()
  const res = await eventsRoute.GET(
    new Request('http://localhost/api/tasks/events', { headers: { authorization: `Bearer ${token}`, 'x-client-ip': '10.0.0.1' }, signal: stop.signal }),
    {
      params: Promise.resolve({}),
    },
  )
  const events: Pushed[] = []
  let ended = false
  const parser = createParser({ onEvent: (e) => e.event === 'task' && events.push(JSON.parse(e.data) as Pushed) })
  const reading = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return void (ended = true)
      parser.feed(value)
    }
  })().catch(() => undefined)
  return { res, events, hasEnded: () => ended, close: async () => (stop.abort(), await reading) }
}

describe('GET /api/tasks/events', () => {
  it('pushes each stage of the caller’s task as it commits: queued, submitting, progress, then the result', async () => {
    const model = await createModel({ name: 'demo-events', options: { stepMs: 150 } })
    const user = await createUser({ points: 50 })
    const stream = await openStream(user.token)
    expect(stream.res.status).toBe(200)
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream')
    const submitted = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: 'a lantern', width: 64, height: 64 } },
    })
    expect(submitted.status).toBe(200)
    await expect.poll(() => stream.events.some((e) => e.stage === 'QUEUED'), { timeout: 5_000 }).toBe(true)
    await drainQueue()
    await expect.poll(() => stream.events.some((e) => e.status === 'SUCCESS'), { timeout: 5_000 }).toBe(true)
    await stream.close()
    const mine = stream.events.filter((e) => e.id === submitted.body.data.id)
    const stages = [...new Set(mine.map((e) => e.stage))]
    expect(stages).toEqual(['QUEUED', 'SUBMITTING', 'DONE'])
    const progress = mine.filter((e) => e.stage === 'SUBMITTING').map((e) => e.progress)
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(mine.at(-1)).toMatchObject({ status: 'SUCCESS', progress: 100 })
    expect(mine.at(-1)!.results).toHaveLength(1)
  })

  it('ends once its session does: a sign-out everywhere stops the thief’s stream before the next task', async () => {
    const model = await createModel({ name: 'demo-events-3' })
    const user = await createUser({ points: 50, password: 'events-password-1' })
    const stolen = await openStream(user.token)
    expect(stolen.res.status).toBe(200)
    expect((await callRoute(logoutRoute.POST, { token: user.token })).status).toBe(200)
    const fresh = await callRoute(loginRoute.POST, { body: { username: user.username, password: 'events-password-1' }, ip: '198.51.100.77' })
    const submitted = await callRoute(tasksRoute.POST, {
      token: fresh.body.data.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: 'after the sign-out', width: 64, height: 64 } },
    })
    expect(submitted.status).toBe(200)
    await expect.poll(() => stolen.hasEnded(), { timeout: 12_000 }).toBe(true)
    await drainQueue()
    await stolen.close()
    expect(stolen.events).toEqual([])
  })

  it('sends nobody else’s tasks, and refuses a caller without a token', async () => {
    const model = await createModel({ name: 'demo-events-2' })
    const [alice, bob] = await Promise.all([createUser({ points: 50 }), createUser({ points: 50 })])
    const stream = await openStream(alice.token)
    await callRoute(tasksRoute.POST, {
      token: bob.token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: 'not yours', width: 64, height: 64 } },
    })
    await drainQueue()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await stream.close()
    expect(stream.events).toEqual([])
    const anonymous = await eventsRoute.GET(new Request('http://localhost/api/tasks/events'), { params: Promise.resolve({}) })
    expect(anonymous.status).toBe(401)
  })
})

// An idle keep-alive connection stays open longer than clients keep theirs: a request sent on
// it is answered, never reset because the server closed it at the same moment. And a shutdown
// lets the answers being written finish before it closes their connections.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { startFakeChatStream } from '../fakes/openai-chat'
import { E2E_BASE_URL, E2E_PORT, E2E_WEB_PID_FILE } from './support/constants'
import { environmentOf } from './support/process-env'
import { asAdmin, uniqueName, userWithPoints } from './support/session'

const root = path.resolve(import.meta.dirname, '../..')

type Answer = { status: number; reusedSocket: boolean }

function get(agent: http.Agent, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, E2E_BASE_URL), { agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }))
    })
    req.on('error', reject)
  })
}

test('a connection idle for longer than a Node client keeps one is still open and answered', async () => {
  test.setTimeout(30_000)
  // A client that holds its idle sockets for 20 s, as nginx's upstream pool does for 60 s.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: 20_000 })
  try {
    expect(await get(agent, '/api/health')).toEqual({ status: 200, reusedSocket: false })
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    expect(await get(agent, '/api/health')).toEqual({ status: 200, reusedSocket: true })
  } finally {
    agent.destroy()
  }
})

/** A second web server of the e2e site (its Next server's own environment), on a port of its own. */
async function startSecondServer(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const launcher = readFileSync(E2E_WEB_PID_FILE, 'utf8').trim()
  const nextPid = readFileSync(`/proc/${launcher}/task/${launcher}/children`, 'utf8').trim().split(/\s+/)[0]
  const env = { ...environmentOf(nextPid!), PORT: String(port) }
  const args = ['--port', String(port), '--host', '127.0.0.1', '--drain-seconds', '2']
  const child = spawn(process.execPath, [path.join(root, 'scripts/next-server.mjs'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let text = ''
  child.stdout!.on('data', (chunk) => (text += chunk))
  child.stderr!.on('data', (chunk) => (text += chunk))
  await expect.poll(() => text, { timeout: 60_000 }).toContain('[web] ready on')
  return { child, output: () => text }
}

test('on SIGTERM an answer being written is finished and its connection then closed, idle ones at once', async () => {
  test.setTimeout(90_000)
  const port = E2E_PORT + 50
  const { child, output } = await startSecondServer(port)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  try {
    const idle = net.connect(port, '127.0.0.1')
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()))
    idle.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    await new Promise((resolve) => idle.once('data', resolve))

    // A request whose body is still on its way when the signal comes.
    const busy = net.connect(port, '127.0.0.1')
    let answer = ''
    busy.on('data', (chunk) => (answer += chunk))
    const busyClosed = new Promise<void>((resolve) => busy.once('close', () => resolve()))
    const body = JSON.stringify({ username: '' })
    busy.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 3)}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 300))

    child.kill('SIGTERM')
    await idleClosed
    await new Promise((resolve) => setTimeout(resolve, 300))
    busy.write(body.slice(3))
    await busyClosed
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain('"success":false')
    expect(await exited, output()).toBe(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
})

test('on SIGTERM a chat answer still streaming keeps what arrived, ends its stream, and the process exits', async ({ page, request }) => {
  test.setTimeout(90_000)
  const fake = await startFakeChatStream({ delayMs: 400, answer: () => '慢慢地回答。'.repeat(30) })
  fake.set('slow')
  const admin = await asAdmin(request)
  // Last in the picker, and switched off afterwards: other specs' pages never offer it first.
  const model = await request.post('/api/admin/chat-models', {
    headers: admin,
    data: { name: uniqueName('重启'), endpoint: fake.url, secret: fake.key, model: 'fake-chat', enabled: true, sort: 10_000, pricePerMessage: 2 },
  })
  expect(model.ok(), await model.text()).toBeTruthy()
  const modelId = (await model.json()).data.id as string
  const { child, output } = await startSecondServer(E2E_PORT + 51)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  try {
    const user = await userWithPoints(page, request, 10)
    const auth = { authorization: `Bearer ${user.token}` }
    const conversation = await request.post('/api/chat/conversations', { headers: auth, data: { modelId } })
    const id = (await conversation.json()).data.id as string

    const res = await fetch(`http://127.0.0.1:${E2E_PORT + 51}/api/chat/conversations/${id}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '你好' }),
    })
    const reader = res.body!.getReader()
    let text = ''
    while (!text.includes('event: delta')) text += new TextDecoder().decode((await reader.read()).value)
    child.kill('SIGTERM')
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value)
    expect(await exited, output()).toBe(0)

    const done = JSON.parse(text.split('event: done\ndata: ')[1]!.split('\n')[0]!)
    expect(done).toMatchObject({ message: { incomplete: true }, points: 8 })
    const stored = (await (await request.get(`/api/chat/conversations/${id}/messages`, { headers: auth })).json()).data.list
    expect(stored.map((m: { role: string }) => m.role)).toEqual(['USER', 'ASSISTANT'])
    expect(stored[1]).toMatchObject({ content: done.message.content, incomplete: true })
    expect(done.message.content.length).toBeGreaterThan(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    await request.patch(`/api/admin/chat-models/${modelId}`, { headers: admin, data: { enabled: false } })
    await fake.close()
  }
})

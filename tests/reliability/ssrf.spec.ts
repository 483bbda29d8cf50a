// SSRF: a model backend pointed at a link-local or cloud metadata address, in any spelling
// (IPv4, decimal, hex, IPv4-mapped IPv6, AWS's IPv6), is refused, at saving or at 测试连接,
// with a Chinese message. Loopback and private addresses stay allowed for backends on purpose
// (an operator's relay on the LAN, docs/RELIABILITY.md §2); user-given URLs have their own,
// stricter list (lib/net/safe-fetch.ts, unit-tested). A backend at an allowed address that answers
// with a redirect to an internal host (another port of this machine, the metadata service) is not
// followed there, neither on 测试连接 nor in a task, nor when the image URL it gives redirects.
import net, { type AddressInfo } from 'node:net'
import { sendJson, startServer } from '../fakes/common'
import { asAdmin, registerViaApi, uniqueName } from '../e2e/support/session'
import { withDatabase } from './support/database'
import { expect, figure, test } from './support/fixtures'

const TARGETS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.170.2/v2/credentials',
  'http://100.100.100.200/latest/meta-data/',
  'http://2852039166/',
  'http://0xA9FEA9FE/',
  'http://0251.0376.0251.0376/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[fd00:ec2::254]/',
  'http://[fe80::1]/',
]

test('model backends at metadata and link-local addresses are refused', async ({ request }) => {
  test.setTimeout(120_000)
  const admin = await asAdmin(request)
  const outcomes: string[] = []
  for (const endpoint of TARGETS) {
    const created = await request.post('/api/admin/models', {
      headers: admin,
      data: { name: uniqueName('ssrf'), type: 'MID_JOURNEY', backend: 'mj-proxy', endpoint, secret: 'x', prices: { MJ_IMAGINE: 5 }, enabled: false },
    })
    if (!created.ok()) {
      expect(created.status(), endpoint).toBe(400)
      const message = (await created.json()).errMessage
      expect(message, endpoint).toMatch(/拒绝|元数据|链路本地|地址/)
      outcomes.push(`${endpoint}: refused at saving (${message})`)
      continue
    }
    const id = (await created.json()).data.id
    const tested = await request.post(`/api/admin/models/${id}/test`, { headers: admin })
    expect(tested.ok(), await tested.text()).toBeTruthy()
    const result = (await tested.json()).data
    expect(result.ok, `${endpoint}: ${JSON.stringify(result)}`).toBe(false)
    expect(`${result.message} ${result.detail ?? ''}`, endpoint).toMatch(/拒绝|元数据|链路本地/)
    outcomes.push(`${endpoint}: refused at 测试连接`)
    await request.delete(`/api/admin/models/${id}`, { headers: admin })
  }
  figure('SSRF targets refused', `${outcomes.length} / ${TARGETS.length}`)
  console.log(outcomes.join('\n'))
})

/** Counts every TCP connection to it, whatever the protocol: an internal service that must never be reached. */
async function startTrap(host = '127.0.0.1') {
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return { port: (server.address() as AddressInfo).port, connections: () => connections, close: () => new Promise((resolve) => server.close(resolve)) }
}

/**
 * A backend at an allowed address (this machine's loopback, as an operator's LAN relay would be)
 * that answers every call with a 302 to an internal target: /t<n>/... redirects to targets[n].
 * The one exception is OpenAI's image generation, which answers properly with an image URL on
 * the backend's own host, and that URL then redirects.
 */
async function startRedirector(targets: string[]) {
  let hits = 0
  const fake = await startServer((req, res, url) => {
    hits++
    const n = Number(/^\/t(\d+)\//.exec(url.pathname)?.[1])
    if (req.method === 'POST' && url.pathname.endsWith('/images/generations'))
      return sendJson(res, 200, { created: 1, data: [{ url: `${fake.url}/t${n}/image.png` }] })
    res.writeHead(302, { location: targets[n] ?? '/' })
    res.end()
  })
  return { ...fake, hits: () => hits }
}

test('a backend that redirects to an internal host is not followed there', async ({ request }) => {
  test.setTimeout(240_000)
  const admin = await asAdmin(request)
  const trap = await startTrap()
  // The trap itself: a connection is counted (and then taken off again).
  await new Promise<void>((resolve, reject) => net.connect(trap.port, '127.0.0.1', resolve).on('error', reject))
  await expect.poll(trap.connections).toBe(1)
  const targets = [
    `http://127.0.0.1:${trap.port}/latest/meta-data/`,
    `https://127.0.0.1:${trap.port}/`,
    `http://localhost:${trap.port}/admin`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  ]
  const backend = await startRedirector(targets)
  const user = await registerViaApi(request)
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  const adjusted = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() },
    data: { points: 100, reason: 'ssrf' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()

  const refused: string[] = []
  const created = async (url: string, data: Record<string, unknown>) => {
    const res = await request.post(url, { headers: admin, data })
    expect(res.ok(), await res.text()).toBeTruthy()
    return (await res.json()).data.id as string
  }
  for (const [n, target] of targets.entries()) {
    const endpoint = `${backend.url}/t${n}`
    // 测试连接 of every kind of backend, and of a chat model.
    for (const kind of ['sd-webui', 'comfyui', 'openai-images', 'mj-proxy'] as const) {
      const mj = kind === 'mj-proxy'
      const id = await created('/api/admin/models', {
        name: uniqueName('跳转'),
        type: mj ? 'MID_JOURNEY' : 'STABLE_DIFFUSION',
        backend: kind,
        endpoint,
        secret: 'sk-ssrf',
        prices: mj ? { MJ_IMAGINE: 1 } : { SD_TEXT2IMG: 1 },
        enabled: false,
      })
      const tested = (await (await request.post(`/api/admin/models/${id}/test`, { headers: admin })).json()).data
      expect(tested.ok, `${kind} → ${target}: ${JSON.stringify(tested)}`).toBe(false)
      refused.push(`${kind} 测试连接 → ${target}: ${tested.message}`)
      await request.delete(`/api/admin/models/${id}`, { headers: admin })
    }
    const chatId = await created('/api/admin/chat-models', {
      name: uniqueName('跳转'),
      endpoint,
      secret: 'sk-ssrf',
      model: 'x',
      pricePerMessage: 0,
      enabled: false,
    })
    const chatTest = (await (await request.post(`/api/admin/chat-models/${chatId}/test`, { headers: admin })).json()).data
    expect(chatTest.ok, `chat → ${target}: ${JSON.stringify(chatTest)}`).toBe(false)
    refused.push(`chat 测试连接 → ${target}: ${chatTest.message}`)
    await request.delete(`/api/admin/chat-models/${chatId}`, { headers: admin })

    // Real tasks: SD WebUI's txt2img answers the redirect; OpenAI's image URL redirects.
    for (const kind of ['sd-webui', 'openai-images'] as const) {
      const modelId = await created('/api/admin/models', {
        name: uniqueName('跳转'),
        backend: kind,
        endpoint,
        secret: 'sk-ssrf',
        prices: { SD_TEXT2IMG: 1 },
        sort: 10_000,
      })
      const submitted = await request.post('/api/tasks', {
        headers: { authorization: `Bearer ${user.token}` },
        data: { type: 'SD_TEXT2IMG', modelId, params: { prompt: 'ssrf redirect', count: 1 } },
      })
      expect(submitted.ok(), await submitted.text()).toBeTruthy()
      const taskId = (await submitted.json()).data.id
      let task = { status: '', errorMessage: '' as string | null }
      await expect
        .poll(
          async () => {
            task = (await (await request.get(`/api/tasks/${taskId}`, { headers: { authorization: `Bearer ${user.token}` } })).json()).data
            return task.status
          },
          { timeout: 60_000 },
        )
        .toBe('FAIL')
      refused.push(`${kind} task → ${target}: FAIL (${task.errorMessage ?? ''})`)
      await request.patch(`/api/admin/models/${modelId}`, { headers: admin, data: { enabled: false } })
    }
  }
  console.log(refused.join('\n'))
  figure('SSRF redirects to internal hosts: backend calls refused', `${refused.length} / ${targets.length * 7}`)
  const reached = trap.connections() - 1
  figure('SSRF redirector answers / connections reaching the internal trap', `${backend.hits()} / ${reached}`)
  expect(backend.hits()).toBeGreaterThanOrEqual(targets.length * 7)
  expect(reached).toBe(0)
  await backend.close()
  await trap.close()
})

test('image URLs a backend answers with are not fetched from this machine or the metadata service', async ({ request }) => {
  test.setTimeout(240_000)
  const admin = await asAdmin(request)
  const v4 = await startTrap()
  const v6 = await startTrap('::1')
  // This machine in every spelling (the URL parser turns decimal, hex and short forms into 127.0.0.1), then the metadata services.
  const targets = [
    `https://127.0.0.1:${v4.port}/image.png`,
    `https://2130706433:${v4.port}/image.png`,
    `https://0x7f000001:${v4.port}/image.png`,
    `https://127.1:${v4.port}/image.png`,
    `https://localhost:${v4.port}/image.png`,
    `https://[::1]:${v6.port}/image.png`,
    `https://[::ffff:127.0.0.1]:${v4.port}/image.png`,
    `http://127.0.0.1:${v4.port}/image.png`,
    'https://169.254.169.254/latest/meta-data/',
    'https://100.100.100.200/latest/meta-data/',
  ]
  // An OpenAI-compatible backend at an allowed address whose generation answers with targets[n] as the image.
  const backend = await startServer((req, res, url) => {
    const n = Number(/^\/t(\d+)\//.exec(url.pathname)?.[1])
    if (req.method === 'POST' && url.pathname.endsWith('/images/generations')) return sendJson(res, 200, { created: 1, data: [{ url: targets[n] }] })
    sendJson(res, 404, { error: { message: 'not found' } })
  })
  const user = await registerViaApi(request)
  const auth = { authorization: `Bearer ${user.token}` }
  const me = (await (await request.get('/api/users/profile', { headers: auth })).json()).data
  const adjusted = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() },
    data: { points: 100, reason: 'ssrf' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()
  const pointsBefore = (await (await request.get('/api/users/profile', { headers: auth })).json()).data.points

  const outcomes: string[] = []
  for (const [n, target] of targets.entries()) {
    const model = await request.post('/api/admin/models', {
      headers: admin,
      data: {
        name: uniqueName('图址'),
        backend: 'openai-images',
        endpoint: `${backend.url}/t${n}`,
        secret: 'sk-ssrf',
        prices: { SD_TEXT2IMG: 1 },
        sort: 10_000,
      },
    })
    expect(model.ok(), await model.text()).toBeTruthy()
    const modelId = (await model.json()).data.id
    const submitted = await request.post('/api/tasks', {
      headers: auth,
      data: { type: 'SD_TEXT2IMG', modelId, params: { prompt: 'ssrf image url', count: 1 } },
    })
    expect(submitted.ok(), await submitted.text()).toBeTruthy()
    const taskId = (await submitted.json()).data.id
    await expect.poll(async () => (await (await request.get(`/api/tasks/${taskId}`, { headers: auth })).json()).data.status, { timeout: 60_000 }).toBe('FAIL')
    // What the backend call ended with, as the console's per-instance error rate keeps it (the user sees a plain refund note).
    const why = await withDatabase(async (db) =>
      (await db.query<{ error: string | null }>('SELECT "error" FROM "BackendAttempt" WHERE "taskId" = $1', [taskId])).rows.map((r) => r.error).join(' | '),
    )
    expect(why, target).toMatch(/拒绝访问内网或保留地址|只允许 https 地址|元数据/)
    outcomes.push(`${target}: FAIL, ${why.slice(0, 160)}`)
    await request.patch(`/api/admin/models/${modelId}`, { headers: admin, data: { enabled: false } })
  }
  console.log(outcomes.join('\n'))
  const points = (await (await request.get('/api/users/profile', { headers: auth })).json()).data.points
  figure(
    'SSRF image URLs given by a backend: refused / connections reaching this machine',
    `${outcomes.length} / ${targets.length}; ${v4.connections() + v6.connections()}`,
  )
  expect(v4.connections() + v6.connections()).toBe(0)
  expect(points, 'every failed task refunded').toBe(pointsBefore)
  await backend.close()
  await v4.close()
  await v6.close()
})

// A model's endpoint decides where the server connects and what 测试连接 reports back
// (server-side request forgery): only an ADMIN sets it, never to a link-local or cloud
// metadata address, and 测试连接 answers with parsed facts, never the body it got.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as modelRoute from '@/app/api/admin/models/[id]/route'
import * as testRoute from '@/app/api/admin/models/[id]/test/route'
import * as modelsRoute from '@/app/api/admin/models/route'
import { db } from '@/lib/db'
import { startServer } from '../fakes/common'
import { callRoute, createUser } from '../helpers/call-route'

// A name that resolves to the metadata address (the test's own DNS; everything else resolves as usual).
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>()
  const lookup = ((hostname: string, options: unknown) =>
    hostname === 'metadata.guard.test'
      ? Promise.resolve([{ address: '169.254.169.254', family: 4 }])
      : real.lookup(hostname, options as never)) as typeof real.lookup
  return { ...real, lookup, default: { ...real, lookup } }
})

let admin: { token: string }
let manager: { token: string }
let backend: { url: string; close(): Promise<void> }
type Answer = { status: number; type: string; body: string }
/** What the fake answers next, on every path (or per path). */
let answer: Answer | ((path: string) => Answer) = { status: 200, type: 'application/json', body: '[]' }
let hits = 0

beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
  manager = await createUser({ role: 'MANAGER' })
  backend = await startServer((_req, res, url) => {
    hits++
    const { status, type, body } = typeof answer === 'function' ? answer(url.pathname) : answer
    res.writeHead(status, { 'content-type': type })
    res.end(body)
  })
})
afterAll(async () => {
  await backend.close()
})

const sdModel = (extra: Record<string, unknown> = {}) => ({ name: 'SD', backend: 'sd-webui', endpoint: backend.url, prices: { SD_TEXT2IMG: 2 }, ...extra })
const create = (token: string, body: Record<string, unknown>) => callRoute(modelsRoute.POST, { token, body })
const patch = (token: string, id: string, body: Record<string, unknown>) => callRoute(modelRoute.PATCH, { method: 'PATCH', token, params: { id }, body })
const testConnection = (token: string, id: string) => callRoute(testRoute.POST, { token, params: { id } })

async function adminModel(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await create(admin.token, sdModel(extra))
  expect(res.status, res.body.errMessage).toBe(200)
  return res.body.data.id
}

describe('only an ADMIN sets or changes a model endpoint', () => {
  it('a MANAGER cannot create a model with an endpoint (403, nothing written); a demo model without one is fine', async () => {
    const before = await db().aiModel.count()
    const res = await create(manager.token, sdModel({ name: '经理的模型' }))
    expect([res.status, res.body.errMessage]).toEqual([403, '只有管理员可以设置或修改模型的接口地址'])
    expect(await db().aiModel.count()).toBe(before)
    const demo = await create(manager.token, { name: '演示', backend: 'demo', prices: { SD_TEXT2IMG: 1 } })
    expect(demo.status, demo.body.errMessage).toBe(200)
  })

  it('a MANAGER cannot PATCH the endpoint, may send it unchanged, and may edit everything else; an ADMIN can change it', async () => {
    const id = await adminModel()
    const elsewhere = 'http://10.20.30.40:7860'
    const moved = await patch(manager.token, id, { endpoint: elsewhere })
    expect([moved.status, moved.body.errMessage]).toEqual([403, '只有管理员可以设置或修改模型的接口地址'])
    const cleared = await patch(manager.token, id, { backend: 'demo', endpoint: '' })
    expect([cleared.status, cleared.body.errMessage]).toEqual([403, '只有管理员可以设置或修改模型的接口地址'])
    expect(await db().aiModel.findUniqueOrThrow({ where: { id } })).toMatchObject({ endpoint: backend.url, backend: 'sd-webui' })

    const edited = await patch(manager.token, id, { name: '主力 SD', prices: { SD_TEXT2IMG: 3 }, enabled: false, concurrency: 2, endpoint: backend.url })
    expect(edited.status, edited.body.errMessage).toBe(200)
    expect(await db().aiModel.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: '主力 SD',
      prices: { SD_TEXT2IMG: 3 },
      enabled: false,
      concurrency: 2,
      endpoint: backend.url,
    })

    // An ADMIN can, to loopback and LAN addresses too (SD WebUI on the LAN is the common case).
    for (const endpoint of ['http://127.0.0.1:7860', 'http://localhost:7860', 'http://192.168.1.20:7860', 'http://[::1]:8188', elsewhere]) {
      const byAdmin = await patch(admin.token, id, { endpoint })
      expect(byAdmin.status, `${endpoint}: ${byAdmin.body.errMessage}`).toBe(200)
      expect((await db().aiModel.findUniqueOrThrow({ where: { id } })).endpoint).toBe(endpoint)
    }
  })
})

describe("a connected model's backend, kind, callback address and workflows", () => {
  it('are ADMIN-only too: a MANAGER gets 403 and nothing changes; sending them unchanged is fine', async () => {
    const id = await adminModel({ name: 'SD 回调' })
    const refusal = [403, '只有管理员可以修改已接入服务的模型的后端、类型、回调地址和工作流']
    for (const body of [{ backend: 'demo' }, { type: 'VIDEO' }, { options: { notifyBaseUrl: 'https://collector.example' } }, { options: { workflows: {} } }]) {
      const res = await patch(manager.token, id, body)
      expect([res.status, res.body.errMessage], JSON.stringify(body)).toEqual(refusal)
    }
    expect(await db().aiModel.findUniqueOrThrow({ where: { id } })).toMatchObject({ backend: 'sd-webui', type: 'STABLE_DIFFUSION', options: {} })
    const same = await patch(manager.token, id, { backend: 'sd-webui', type: 'STABLE_DIFFUSION', options: { steps: 20 }, name: 'SD 回调二' })
    expect(same.status, same.body.errMessage).toBe(200)
    const byAdmin = await patch(admin.token, id, { options: { notifyBaseUrl: 'https://site.example' } })
    expect(byAdmin.status, byAdmin.body.errMessage).toBe(200)
    // A demo model (no endpoint, no key) stays the MANAGER's to change.
    const demo = await create(manager.token, { name: '演示二', backend: 'demo', prices: { SD_TEXT2IMG: 1 } })
    const switched = await patch(manager.token, demo.body.data.id, { options: { stepMs: 5 } })
    expect(switched.status, switched.body.errMessage).toBe(200)
  })
})

describe('link-local and cloud metadata endpoints', () => {
  const refused = [
    'http://169.254.169.254/latest/meta-data',
    'http://100.100.100.200/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:169.254.169.254]:80/',
    'http://metadata.guard.test:8080',
  ]

  it.each(refused)('are refused when an ADMIN saves %s (400, nothing written)', async (endpoint) => {
    const before = await db().aiModel.count()
    const created = await create(admin.token, sdModel({ endpoint }))
    expect(created.status).toBe(400)
    expect(created.body.errMessage).toMatch(/链路本地或云服务器元数据地址/)
    expect(await db().aiModel.count()).toBe(before)

    const id = await adminModel()
    const patched = await patch(admin.token, id, { endpoint })
    expect(patched.status).toBe(400)
    expect(patched.body.errMessage).toMatch(/链路本地或云服务器元数据地址/)
    expect((await db().aiModel.findUniqueOrThrow({ where: { id } })).endpoint).toBe(backend.url)
  })

  it('a metadata endpoint already stored (saved before the check) is refused when 测试连接 connects', async () => {
    const id = await adminModel()
    await db().aiModel.update({ where: { id }, data: { endpoint: 'http://metadata.guard.test:8080' } })
    const res = await testConnection(admin.token, id)
    expect(res.body.data).toMatchObject({ ok: false, message: expect.stringMatching(/元数据地址/) })
  })
})

describe('测试连接 never returns the body it got', () => {
  const html = '<html><head><title>Jenkins internal console</title></head><body>deploy-token=zq81XkP0aa7Qm ROOT_PASSWORD=hunter2-internal</body></html>'
  const secret = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nAKIAIOSFODNN7EXAMPLE'
  const jsonString = JSON.stringify('instance-identity token 9f8e7d6c5b4a39281706')
  /** Every 6-character piece of the body: none may show up anywhere in the answer. */
  const pieces = (body: string) => Array.from({ length: body.length - 5 }, (_, i) => body.slice(i, i + 6)).filter((p) => p.trim().length === 6)

  const backends = [
    { backend: 'sd-webui', type: 'STABLE_DIFFUSION', prices: { SD_TEXT2IMG: 1 } },
    { backend: 'comfyui', type: 'STABLE_DIFFUSION', prices: { SD_TEXT2IMG: 1 } },
    { backend: 'openai-images', type: 'STABLE_DIFFUSION', prices: { SD_TEXT2IMG: 1 } },
    { backend: 'mj-proxy', type: 'MID_JOURNEY', prices: { MJ_IMAGINE: 1 } },
  ]
  const cases = backends.flatMap((b) =>
    [200, 500, 403].flatMap((status) => [
      { ...b, status, contentType: 'text/html', body: html },
      { ...b, status, contentType: 'text/plain', body: secret },
      // A JSON string is not an error text either (with 200 it is simply not a model list).
      ...(status === 200 ? [] : [{ ...b, status, contentType: 'application/json', body: jsonString }]),
    ]),
  )

  it.each(cases)('$backend answering $status with $contentType', async ({ backend: kind, type, prices, status, contentType, body }) => {
    const id = await adminModel({ backend: kind, type, prices })
    answer = { status, type: contentType, body }
    hits = 0
    for (const token of [admin.token, manager.token]) {
      const res = await testConnection(token, id)
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ ok: false, message: expect.any(String) })
      const shown = JSON.stringify(res.body)
      for (const piece of pieces(body)) expect(shown, `the answer repeats "${piece}"`).not.toContain(piece)
    }
    expect(hits).toBeGreaterThan(0)
  })

  it('a good answer gives parsed facts only: { ok, message, detail: { version, models } }, not the objects they came in', async () => {
    const id = await adminModel({ backend: 'comfyui' })
    const stats = {
      system: { comfyui_version: '0.3.40', argv: ['main.py', '--api-key', 'never-shown-1234'], os: 'posix' },
      devices: [{ name: 'cuda:0 RTX 4090', vram_total: 1 }],
    }
    const checkpoints = { CheckpointLoaderSimple: { input: { required: { ckpt_name: [['sd15.safetensors']] } }, description: 'never-shown-5678' } }
    answer = (path) => ({ status: 200, type: 'application/json', body: JSON.stringify(path === '/system_stats' ? stats : checkpoints) })
    const res = await testConnection(manager.token, id)
    expect(res.body.data).toEqual({
      ok: true,
      message: '连接正常：ComfyUI 0.3.40，cuda:0 RTX 4090，1 个模型',
      detail: { version: '0.3.40', models: ['sd15.safetensors'] },
    })
  })
})

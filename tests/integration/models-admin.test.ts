// /admin/model_mana's API and backend keys: a key is ADMIN-only (docs/PRODUCT.md §6: backend keys are
// admin-only), and a stored key never follows the endpoint to another host by itself, so
// 测试连接 cannot be used to send it there. Endpoints are ADMIN-only too (models-endpoint-guard.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as modelRoute from '@/app/api/admin/models/[id]/route'
import * as testRoute from '@/app/api/admin/models/[id]/test/route'
import * as modelsRoute from '@/app/api/admin/models/route'
import { db } from '@/lib/db'
import { prismaModelRows } from '../helpers/model-rows'
import { openModelSecret } from '@/lib/models/model-secret'
import { startServer, sendJson, type RecordedRequest } from '../fakes/common'
import { startFakeMjProxy, type FakeMj } from '../fakes/mj-proxy'
import { callRoute, createUser } from '../helpers/call-route'

let proxy: FakeMj
/** Someone else's server: it records whatever reaches it. */
let elsewhere: { url: string; close(): Promise<void> }
const stolen: RecordedRequest['headers'][] = []
let admin: { token: string }
let manager: { token: string }

beforeAll(async () => {
  proxy = await startFakeMjProxy({ secret: 'the-real-key' })
  elsewhere = await startServer((req, res) => (stolen.push(req.headers), sendJson(res, 200, [])))
  admin = await createUser({ role: 'ADMIN' })
  manager = await createUser({ role: 'MANAGER' })
})
afterAll(async () => {
  await Promise.all([proxy.close(), elsewhere.close()])
})

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'MJ',
  type: 'MID_JOURNEY',
  backend: 'mj-proxy',
  endpoint: proxy.url,
  prices: { MJ_IMAGINE: 5 },
  ...extra,
})
const patch = (token: string, id: string, data: Record<string, unknown>) => callRoute(modelRoute.PATCH, { method: 'PATCH', token, params: { id }, body: data })
const stored = async (id: string) => {
  const row = await db().aiModel.findUniqueOrThrow({ where: { id } })
  return { endpoint: row.endpoint, secret: row.secretEnc ? openModelSecret(row.secretEnc) : null }
}

async function keyedModel() {
  const res = await callRoute(modelsRoute.POST, { token: admin.token, body: body({ secret: 'the-real-key' }) })
  expect(res.status, res.body.errMessage).toBe(200)
  return res.body.data.id as string
}

describe('backend keys on /api/admin/models', () => {
  it('a MANAGER may manage models but not set, change or clear a key (403, nothing written)', async () => {
    const created = await callRoute(modelsRoute.POST, { token: manager.token, body: body({ secret: 'mine' }) })
    expect([created.status, created.body.errMessage]).toEqual([403, '只有管理员可以设置或修改模型密钥'])
    const plain = await callRoute(modelsRoute.POST, { token: manager.token, body: { name: '演示', backend: 'demo', secret: '' } })
    expect(plain.status, plain.body.errMessage).toBe(200)

    const id = await keyedModel()
    for (const secret of ['another-key', '']) {
      const res = await patch(manager.token, id, { secret })
      expect([res.status, res.body.errMessage]).toEqual([403, '只有管理员可以设置或修改模型密钥'])
    }
    const renamed = await patch(manager.token, id, { name: 'MJ 主力', concurrency: 2 })
    expect(renamed.status, renamed.body.errMessage).toBe(200)
    expect(await stored(id)).toEqual({ endpoint: proxy.url, secret: 'the-real-key' })
    // The list shows a MANAGER the key masked, never in full.
    const listed = (await callRoute(modelsRoute.GET, { token: manager.token })).body.data.find((m: { id: string }) => m.id === id)
    expect(listed.secret).not.toContain('the-real-key')
    // The whole list as the Prisma query made it: the masked key, and '' for the model without one.
    const answer = (await callRoute(modelsRoute.GET, { token: manager.token })).body.data
    expect(JSON.stringify(answer)).toBe(JSON.stringify(await prismaModelRows()))
    expect(answer.find((m: { id: string }) => m.id === plain.body.data.id)).toMatchObject({ secret: '', poolQueued: null, queued: 0 })
  })

  it('moving a keyed model to another host needs the key again (a MANAGER cannot move it at all); 测试连接 never sends the old key there', async () => {
    const id = await keyedModel()
    const managerMove = await patch(manager.token, id, { endpoint: elsewhere.url })
    expect([managerMove.status, managerMove.body.errMessage]).toEqual([403, '只有管理员可以设置或修改模型的接口地址'])
    const adminMove = await patch(admin.token, id, { endpoint: `${elsewhere.url}/mj` })
    expect([adminMove.status, adminMove.body.errMessage]).toEqual([400, '更换接口地址时请重新填写密钥（或清除密钥）'])
    expect(await stored(id)).toEqual({ endpoint: proxy.url, secret: 'the-real-key' })

    // 测试连接 still goes to the proxy, with its key; the other host heard nothing.
    expect((await callRoute(testRoute.POST, { token: manager.token, params: { id } })).body.data).toMatchObject({ ok: true })
    expect(stolen).toEqual([])

    // Same host, another path: the key stays. Another host with the key typed again, or cleared: fine.
    expect((await patch(admin.token, id, { endpoint: `${proxy.url}/mj` })).status).toBe(200)
    expect(await stored(id)).toEqual({ endpoint: `${proxy.url}/mj`, secret: 'the-real-key' })
    expect((await patch(admin.token, id, { endpoint: elsewhere.url, secret: 'a-key-for-there' })).status).toBe(200)
    expect(await stored(id)).toEqual({ endpoint: elsewhere.url, secret: 'a-key-for-there' })
    expect((await patch(admin.token, id, { endpoint: proxy.url, secret: '' })).status).toBe(200)
    expect(await stored(id)).toEqual({ endpoint: proxy.url, secret: null })
    // Without a stored key the endpoint moves freely.
    expect((await patch(admin.token, id, { endpoint: elsewhere.url })).status).toBe(200)
  })

  it('the audit says when an ADMIN typed a new key, and never holds the key itself', async () => {
    const id = await keyedModel()
    expect((await patch(admin.token, id, { secret: 'a-fresh-key' })).status).toBe(200)
    expect((await patch(admin.token, id, { name: 'MJ 备用' })).status).toBe(200)
    const rows = await db().adminAuditLog.findMany({ where: { action: 'model.update', targetId: id }, orderBy: { id: 'asc' } })
    expect(rows.map((r) => r.after)).toEqual([
      expect.objectContaining({ hasSecret: true, secretReplaced: true }),
      expect.not.objectContaining({ secretReplaced: expect.anything() }),
    ])
    expect(JSON.stringify(rows)).not.toMatch(/the-real-key|a-fresh-key/)
  })
})

describe('what a model may be saved with', () => {
  it('an endpoint with a user name or password in it is refused: that goes in the key', async () => {
    for (const endpoint of ['http://user:pass@127.0.0.1:7860', 'http://user@127.0.0.1:7860', 'http://:pass@127.0.0.1:7860']) {
      const res = await callRoute(modelsRoute.POST, { token: admin.token, body: { name: 'SD', backend: 'sd-webui', endpoint } })
      expect([res.status, res.body.errMessage]).toEqual([400, expect.stringContaining('接口地址不能包含用户名和密码')])
    }
    const id = await keyedModel()
    const moved = await patch(admin.token, id, { endpoint: 'http://user:pass@127.0.0.1:7860', secret: '' })
    expect(moved.status).toBe(400)
    expect((await stored(id)).endpoint).toBe(proxy.url)
  })

  it('a MANAGER may delete only a model with no endpoint or key (deleting clears them)', async () => {
    const id = await keyedModel()
    const refused = await callRoute(modelRoute.DELETE, { method: 'DELETE', token: manager.token, params: { id } })
    expect([refused.status, refused.body.errMessage]).toEqual([403, '只有管理员可以删除配置了接口地址或密钥的模型'])
    expect(await db().aiModel.count({ where: { id } })).toBe(1)
    const demo = await callRoute(modelsRoute.POST, { token: manager.token, body: { name: '演示', backend: 'demo' } })
    expect((await callRoute(modelRoute.DELETE, { method: 'DELETE', token: manager.token, params: { id: demo.body.data.id } })).status).toBe(200)
    expect((await callRoute(modelRoute.DELETE, { method: 'DELETE', token: admin.token, params: { id } })).status).toBe(200)
  })

  it('every member of a pool is the same backend and type: a demo renderer cannot join paid instances', async () => {
    const first = await callRoute(modelsRoute.POST, { token: admin.token, body: body({ pool: 'mj-same' }) })
    expect(first.status, first.body.errMessage).toBe(200)
    const demo = await callRoute(modelsRoute.POST, { token: manager.token, body: { name: '演示', backend: 'demo', pool: 'mj-same' } })
    expect([demo.status, demo.body.errMessage]).toEqual([400, expect.stringContaining('同一资源池的模型需使用相同的后端和类型')])
    const alone = await callRoute(modelsRoute.POST, { token: manager.token, body: { name: '演示', backend: 'demo' } })
    expect((await patch(manager.token, alone.body.data.id, { pool: 'mj-same' })).status).toBe(400)
    expect(await db().aiModel.count({ where: { pool: 'mj-same' } })).toBe(1)
    // Another instance of the same kind joins; the pool's only member may change kind.
    const second = await callRoute(modelsRoute.POST, { token: admin.token, body: body({ name: 'MJ 2', pool: 'mj-same' }) })
    expect(second.status, second.body.errMessage).toBe(200)
    expect((await patch(admin.token, second.body.data.id, { pool: null })).status).toBe(200)
    expect((await patch(admin.token, first.body.data.id, { type: 'STABLE_DIFFUSION', backend: 'demo', endpoint: '', secret: '', prices: {} })).status).toBe(200)
  })

  it('Midjourney members of a pool offer the same speeds; a pool mixed before this rule can still be switched off member by member', async () => {
    const fast = await callRoute(modelsRoute.POST, { token: admin.token, body: body({ pool: 'mj-speeds', options: { speeds: ['fast', 'turbo'] } }) })
    expect(fast.status, fast.body.errMessage).toBe(200)
    const relax = await callRoute(modelsRoute.POST, { token: admin.token, body: body({ name: 'MJ relax', pool: 'mj-speeds', options: { speeds: ['relax'] } }) })
    expect([relax.status, relax.body.errMessage]).toEqual([400, expect.stringContaining('需提供相同的速度模式')])
    const same = await callRoute(modelsRoute.POST, {
      token: admin.token,
      body: body({ name: 'MJ same', pool: 'mj-speeds', options: { speeds: ['turbo', 'fast'] } }),
    })
    expect(same.status, same.body.errMessage).toBe(200)
    expect((await patch(admin.token, same.body.data.id, { options: { speeds: ['fast'] } })).status).toBe(400)

    const mixed = await db().aiModel.create({ data: { name: 'old demo', type: 'STABLE_DIFFUSION', backend: 'demo', pool: 'mj-speeds' } })
    expect((await patch(manager.token, mixed.id, { enabled: false })).status).toBe(200)
    expect((await patch(admin.token, same.body.data.id, { sort: 5 })).status).toBe(200)
  })
})

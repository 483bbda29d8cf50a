// Request bodies are bounded in the route wrapper: JSON at 1MB, uploads at 10MB, refused with
// a 413 before being read (Content-Length) or as soon as a chunked body passes the limit, so an
// anonymous 200MB POST costs no memory; JSON nested absurdly deep is a 400, not a crash.
import { beforeAll, describe, expect, it } from 'vitest'
import * as importRoute from '@/app/api/admin/cards/batch_import/route'
import * as cardsRoute from '@/app/api/admin/cards/route'
import * as loginRoute from '@/app/api/auth/login/route'
import * as registerRoute from '@/app/api/auth/register/route'
import * as mjNotifyRoute from '@/app/api/mj/notify/[secret]/route'
import * as alipayNotifyRoute from '@/app/api/pay/alipay/notify/route'
import * as wechatNotifyRoute from '@/app/api/pay/wechat/notify/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import * as uploadsRoute from '@/app/api/uploads/route'
import * as avatarRoute from '@/app/api/users/avatar/route'
import { db } from '@/lib/db'
import { JSON_BODY_LIMIT } from '@/lib/http/body-limit'
import { UPLOAD_BODY_LIMIT } from '@/lib/uploads/image-upload'
import { callRoute, createUser } from '../helpers/call-route'
import { freshKeys } from '../helpers/cards-fixtures'
import { expectFail, expectOk } from '../helpers/expect-response'

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

const MB = 1024 * 1024
const CHUNK = 64 * 1024
const ATTACK = 200 * MB
const BOUNDARY = '----aiimg-limit-boundary'
const JSON_TOO_LARGE = '请求内容不能超过 1MB'
const UPLOAD_TOO_LARGE = '文件不能超过 10MB'
const NUL_REFUSED = '请求中含有无效字符（U+0000）'

let userToken: string
let adminToken: string
beforeAll(async () => {
  userToken = (await createUser()).token
  adminToken = (await createUser({ role: 'ADMIN' })).token
})

/**
 * A body of `total` bytes made on demand in fresh 64KB chunks (nothing exists before it is
 * pulled), recording how much was pulled and the largest growth of the process's
 * ArrayBuffer memory over its start while the body was being read.
 */
function lazyBody(total: number, head = '') {
  const probe = { pulled: 0, peakGrowth: 0 }
  const base = process.memoryUsage().arrayBuffers
  let sentHead = false
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sentHead && head) {
          sentHead = true
          return controller.enqueue(new TextEncoder().encode(head))
        }
        if (probe.pulled >= total) return controller.close()
        const chunk = new Uint8Array(CHUNK).fill(0x20) // spaces: valid JSON whitespace, harmless file bytes
        probe.pulled += chunk.byteLength
        probe.peakGrowth = Math.max(probe.peakGrowth, process.memoryUsage().arrayBuffers - base)
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  ) // pulled only when read
  return { stream, probe }
}

async function send(handler: Handler, body: BodyInit, headers: Record<string, string>, params: Record<string, string> = {}) {
  const req = new Request('http://localhost/api/test', {
    method: 'POST',
    headers: { 'x-client-ip': '10.0.0.9', ...headers },
    body,
    duplex: 'half',
  } as RequestInit)
  const res = await handler(req, { params: Promise.resolve(params) })
  return { status: res.status, body: await res.json() }
}

const json = { 'content-type': 'application/json' }
const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }
const filePart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('JSON bodies (1MB by default)', () => {
  it('refuses an anonymous 200MB login by its Content-Length with 413, reading none of it', async () => {
    const { stream, probe } = lazyBody(ATTACK)
    const res = await send(loginRoute.POST, stream, { ...json, 'content-length': String(ATTACK) })
    expectFail(res, 413, JSON_TOO_LARGE)
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE')
    expect(probe.pulled).toBe(0)
  })

  it('cuts a chunked 200MB login off at 1MB: 413, and memory grows by no more than the limit', async () => {
    const { stream, probe } = lazyBody(ATTACK)
    const res = await send(loginRoute.POST, stream, json)
    expectFail(res, 413, JSON_TOO_LARGE)
    expect(probe.pulled).toBeLessThanOrEqual(JSON_BODY_LIMIT + 2 * CHUNK)
    expect(probe.peakGrowth).toBeLessThanOrEqual(JSON_BODY_LIMIT + 2 * CHUNK)
  })

  it('refuses a body just over 1MB and a Content-Length that understates a longer body', async () => {
    const over = `{"username":"${'x'.repeat(JSON_BODY_LIMIT)}"}`
    expectFail(await callRoute(loginRoute.POST, { body: over }), 413, JSON_TOO_LARGE)
    const { stream, probe } = lazyBody(ATTACK)
    expectFail(await send(registerRoute.POST, stream, { ...json, 'content-length': '100' }), 413, JSON_TOO_LARGE)
    expect(probe.pulled).toBeLessThanOrEqual(JSON_BODY_LIMIT + 2 * CHUNK)
  })

  it('still takes the largest legitimate body: 10,000 card keys in one import (about 200KB)', async () => {
    const cards = freshKeys(10_000, 'LIMIT')
    expect(JSON.stringify({ cards }).length).toBeGreaterThan(150 * 1024)
    const { count } = expectOk(await callRoute(importRoute.POST, { token: adminToken, body: { cards } }))
    expect(count).toBe(10_000)
  })
})

describe('uploads (10MB)', () => {
  it.each([
    ['POST /api/uploads', uploadsRoute.POST],
    ['POST /api/users/avatar', avatarRoute.POST],
  ] as const)('%s: 200MB by Content-Length is a 413 before reading, even before the token is checked', async (_label, handler) => {
    for (const headers of [{ ...multipart, ...bearer(userToken) }, multipart]) {
      const { stream, probe } = lazyBody(ATTACK, filePart)
      expectFail(await send(handler, stream, { ...headers, 'content-length': String(ATTACK) }), 413, UPLOAD_TOO_LARGE)
      expect(probe.pulled).toBe(0)
    }
  })

  it.each([
    ['POST /api/uploads', uploadsRoute.POST],
    ['POST /api/users/avatar', avatarRoute.POST],
  ] as const)('%s: a chunked 200MB upload is cut off at 10MB with 413, memory growing by no more than the limit', async (_label, handler) => {
    const rows = await db().uploadedImage.count()
    const { stream, probe } = lazyBody(ATTACK, filePart)
    expectFail(await send(handler, stream, { ...multipart, ...bearer(userToken) }), 413, UPLOAD_TOO_LARGE)
    expect(probe.pulled).toBeLessThanOrEqual(UPLOAD_BODY_LIMIT + 2 * CHUNK)
    expect(probe.peakGrowth).toBeLessThanOrEqual(UPLOAD_BODY_LIMIT + 2 * CHUNK)
    expect(await db().uploadedImage.count()).toBe(rows)
  })

  it('a JSON route does not take an upload-sized body', async () => {
    const { stream } = lazyBody(2 * MB)
    expectFail(await send(tasksRoute.POST, stream, { ...json, ...bearer(userToken), 'content-length': String(2 * MB) }), 413, JSON_TOO_LARGE)
  })
})

describe('payment notifications (64KB, read raw for their signatures)', () => {
  const NOTIFY_LIMIT = 64 * 1024
  const notify = async (handler: (req: Request) => Promise<Response>, body: BodyInit, headers: Record<string, string> = {}) => {
    const req = new Request('http://localhost/api/pay/notify', { method: 'POST', headers, body, duplex: 'half' } as RequestInit)
    const res = await handler(req)
    return { status: res.status, text: await res.text() }
  }
  const routes = [
    { name: 'WeChat Pay', handler: wechatNotifyRoute.POST, refusal: JSON.stringify({ code: 'FAIL', message: '请求体过大' }) },
    { name: 'Alipay', handler: alipayNotifyRoute.POST, refusal: 'fail' },
  ]

  it('cut a chunked 200MB notification off at the limit: 413 in the provider’s form, nothing recorded', async () => {
    const recorded = await db().paymentNotification.count()
    for (const route of routes) {
      const { stream, probe } = lazyBody(ATTACK)
      expect(await notify(route.handler, stream), route.name).toEqual({ status: 413, text: route.refusal })
      expect(probe.pulled, route.name).toBeLessThanOrEqual(NOTIFY_LIMIT + 2 * CHUNK)
    }
    expect(await db().paymentNotification.count()).toBe(recorded)
  })

  it('refuse a notification by its Content-Length, reading none of it', async () => {
    for (const route of routes) {
      const { stream, probe } = lazyBody(ATTACK)
      expect(await notify(route.handler, stream, { 'content-length': String(ATTACK) }), route.name).toEqual({ status: 413, text: route.refusal })
      expect(probe.pulled, route.name).toBe(0)
    }
  })
})

describe('JSON nested too deep', () => {
  const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
  const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

  it('10,000 levels answer a clear 400 on every kind of route, never a 500', async () => {
    const deep = deepArray(10_000)
    const cases: Array<{ handler: Handler; body: string; token?: string; params?: Record<string, string> }> = [
      { handler: loginRoute.POST, body: `{"username":${deep},"password":"x"}` },
      { handler: registerRoute.POST, body: deepObject(10_000) },
      { handler: tasksRoute.POST, body: `{"type":"SD_TEXT2IMG","params":{"prompt":"x","extra":${deep}}}`, token: userToken },
      { handler: siteConfigItem.PATCH, body: `{"value":${deep}}`, token: adminToken, params: { name: 'name' } },
      { handler: mjNotifyRoute.POST, body: `{"id":"1","properties":${deep}}`, params: { secret: 'whatever' } },
    ]
    for (const c of cases) {
      const res = await callRoute(c.handler, { method: c.handler === siteConfigItem.PATCH ? 'PATCH' : 'POST', body: c.body, token: c.token, params: c.params })
      expectFail(res, 400, '请求体嵌套过深')
    }
  })

  it('ordinary nesting, and brackets inside strings, are not counted against it', async () => {
    const value = `${'['.repeat(1_000)}"\\"{{{`
    expectOk(await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: adminToken, params: { name: 'description' }, body: JSON.stringify({ value }) }))
    expect(JSON.parse((await db().siteConfig.findUniqueOrThrow({ where: { name: 'description' } })).value)).toBe(value)
    // 60 levels get past the depth check to the route itself (an unknown hook secret is a 404).
    expectFail(await callRoute(mjNotifyRoute.POST, { body: deepObject(60), params: { secret: 'whatever' } }), 404)
  })
})

describe('U+0000, which PostgreSQL text cannot hold', () => {
  it('in a body, a query or a path answers a clear 400 before anything is written, never a 500', async () => {
    const tasksBefore = await db().task.count()
    expectFail(await callRoute(tasksRoute.POST, { token: userToken, body: { type: 'SD_TEXT2IMG', params: { prompt: 'a\u0000b' } } }), 400, NUL_REFUSED)
    expect(await db().task.count()).toBe(tasksBefore)
    expectFail(await callRoute(registerRoute.POST, { body: { username: 'nul\u0000user', password: 'Passw0rd!' } }), 400, NUL_REFUSED)
    expectFail(
      await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: adminToken, params: { name: 'description' }, body: { value: { ['k\u0000']: 1 } } }),
      400,
      NUL_REFUSED,
    )
    expectFail(await callRoute(cardsRoute.GET, { method: 'GET', token: adminToken, query: { keyword: 'x\u0000' } }), 400, NUL_REFUSED)
    expectFail(
      await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: adminToken, params: { name: 'desc\u0000' }, body: { value: 'x' } }),
      400,
      NUL_REFUSED,
    )
  })

  it('half of a surrogate pair (half an emoji), which a JSON column cannot hold, is a clear 400 too; a whole one, escaped or not, is stored', async () => {
    const tasksBefore = await db().task.count()
    const halfEmoji = '请求中含有无效字符（不完整的 Unicode 字符）'
    const halfSaved = await callRoute(siteConfigItem.PATCH, {
      method: 'PATCH',
      token: adminToken,
      params: { name: 'description' },
      body: '{"value":"笑\\ud83d"}',
    })
    expectFail(halfSaved, 400, halfEmoji)
    expectFail(await callRoute(tasksRoute.POST, { token: userToken, body: { type: 'SD_TEXT2IMG', params: { prompt: '猫\ud83d' } } }), 400, halfEmoji)
    expectFail(await callRoute(tasksRoute.POST, { token: userToken, body: { type: 'SD_TEXT2IMG', params: { ['\udc00']: 1, prompt: '猫' } } }), 400, halfEmoji)
    expect(await db().task.count()).toBe(tasksBefore)
    for (const body of ['{"value":"笑\\ud83d\\ude00"}', '{"value":"笑😀"}']) {
      expectOk(await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: adminToken, params: { name: 'description' }, body }))
      expect(JSON.parse((await db().siteConfig.findUniqueOrThrow({ where: { name: 'description' } })).value)).toBe('笑😀')
    }
  })

  it('a backslash followed by u0000 is ordinary text', async () => {
    const value = '\\u0000 是六个字符'
    expectOk(await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: adminToken, params: { name: 'description' }, body: JSON.stringify({ value }) }))
    expect(JSON.parse((await db().siteConfig.findUniqueOrThrow({ where: { name: 'description' } })).value)).toBe(value)
  })
})

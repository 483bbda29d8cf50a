// docs/PRODUCT.md §7 "API conventions": one envelope for every answer; a body that is not JSON is a 400
// with a clear message, on every route that reads a body, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest'
import * as register from '@/app/api/auth/register/route'
import * as login from '@/app/api/auth/login/route'
import * as profile from '@/app/api/users/profile/route'
import * as password from '@/app/api/users/password/route'
import * as adminUser from '@/app/api/admin/user/route'
import * as adminUserItem from '@/app/api/admin/user/[id]/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail } from '../helpers/expect-response'

const BAD_JSON = '请求体不是合法的 JSON'

type Handler = Parameters<typeof callRoute>[0]
type BodyRoute = { label: string; handler: Handler; method: string; as: 'anyone' | 'user' | 'admin'; params?: Record<string, string> }

let adminToken: string
let userToken: string
let targetId: string
beforeAll(async () => {
  adminToken = (await createUser({ role: 'ADMIN', username: 'conv_admin' })).token
  userToken = (await createUser({ username: 'conv_user', name: 'Conv' })).token
  targetId = (await createUser({ username: 'conv_target', name: 'Target' })).id
})

const BODY_ROUTES: BodyRoute[] = [
  { label: 'POST /api/auth/register', handler: register.POST, method: 'POST', as: 'anyone' },
  { label: 'POST /api/auth/login', handler: login.POST, method: 'POST', as: 'anyone' },
  { label: 'PATCH /api/users/profile', handler: profile.PATCH, method: 'PATCH', as: 'user' },
  { label: 'POST /api/users/password', handler: password.POST, method: 'POST', as: 'user' },
  { label: 'POST /api/admin/user', handler: adminUser.POST, method: 'POST', as: 'admin' },
  { label: 'PATCH /api/admin/user/{id}', handler: adminUserItem.PATCH, method: 'PATCH', as: 'admin', params: { id: 'TARGET' } },
  { label: 'PATCH /api/site-config/{name}', handler: siteConfigItem.PATCH, method: 'PATCH', as: 'admin', params: { name: 'name' } },
]

function send(route: BodyRoute, body: string) {
  const token = route.as === 'admin' ? adminToken : route.as === 'user' ? userToken : undefined
  const params = route.params?.id === 'TARGET' ? { id: targetId } : route.params
  return callRoute(route.handler, { method: route.method, token, params, body })
}

/** What a bad request must not touch. */
const snapshot = async () => ({
  users: await db().user.findMany({ orderBy: { id: 'asc' } }),
  config: await db().siteConfig.findMany(),
  audits: await db().adminAuditLog.count(),
})

describe('a body that is not JSON', () => {
  it.each(BODY_ROUTES.map((r) => [r.label, r] as const))('%s answers 400 with a clear message and writes nothing', async (_label, route) => {
    const before = await snapshot()
    for (const body of ['{not json', '{"username": "x",}', "{'value': 1}", 'undefined']) {
      const res = await send(route, body)
      expectFail(res, 400, BAD_JSON)
      expect(res.body.code).toBe('BAD_REQUEST')
    }
    expect(await snapshot()).toEqual(before)
  })
})

describe('the envelope', () => {
  it('has exactly success, data, errMessage and code on failure', async () => {
    const res = await callRoute(login.POST, { body: '{oops' })
    expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'errMessage', 'success'])
  })

  it('has exactly success and data on success', async () => {
    const res = await callRoute(profile.GET, { token: userToken })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success'])
    expect(res.body.success).toBe(true)
  })

  it('treats JSON that is not an object as bad input (400), not as a crash', async () => {
    for (const body of ['null', '[]', '42', '"text"']) {
      expectFail(await callRoute(register.POST, { body }), 400, '请求内容的格式不正确')
    }
  })
})

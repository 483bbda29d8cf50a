// Every route file under app/api/admin (found on disk, so a new one is covered by itself), every
// method it exports, called as anonymous, USER, MANAGER and ADMIN: 401, 403, the MANAGER rule of
// docs/PRODUCT.md §6 (the console's 'admin'-only routes refuse them), allowed. Never a 5xx.
// Then an ADMIN demoted to USER is refused on their very next request.
import { readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { asAdmin, loginViaApi, uniqueName } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const ADMIN_API = path.resolve(import.meta.dirname, '../../app/api/admin')
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Endpoint = { method: Method; url: string; access: string; file: string }

/** The endpoints of every route.ts under app/api/admin, with the access level its route() declares. */
async function adminEndpoints(): Promise<Endpoint[]> {
  const files = (await readdir(ADMIN_API, { recursive: true })).filter((f) => path.basename(f) === 'route.ts')
  const endpoints: Endpoint[] = []
  for (const file of files) {
    const source = readFileSync(path.join(ADMIN_API, file), 'utf8')
    // A dynamic segment gets an id no row has: a number, so serial and string ids both parse.
    const url = `/api/admin/${path
      .dirname(file)
      .split(path.sep)
      .map((s) => (s.startsWith('[') ? '987654321' : s))
      .join('/')}`
    const exports = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = /g)]
    expect(exports.length, `${file} exports no method`).toBeGreaterThan(0)
    for (const [i, match] of exports.entries()) {
      const body = source.slice(match.index, exports[i + 1]?.index ?? source.length)
      const access = /access: '(\w+)'/.exec(body)?.[1]
      expect(access, `${file} ${match[1]}: route({ access }) not found`).toBeTruthy()
      endpoints.push({ method: match[1] as Method, url: url.replace(/\/\.$/, ''), access: access!, file })
    }
  }
  return endpoints
}

async function call(request: APIRequestContext, endpoint: Endpoint, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  const withBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE'
  const res = await request.fetch(endpoint.url, { method: endpoint.method, headers, ...(withBody ? { data: {} } : {}), maxRedirects: 0 })
  return res.status()
}

async function staffWithRole(request: APIRequestContext, role: 'USER' | 'MANAGER' | 'ADMIN') {
  const username = uniqueName(role.toLowerCase())
  const created = await request.post('/api/admin/user', {
    headers: await asAdmin(request),
    data: { username, name: username, password: 'sweep-password-1', role },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  return { id: (await created.json()).data.id as string, token: await loginViaApi(request, username, 'sweep-password-1') }
}

test('every admin API × anonymous / USER / MANAGER / ADMIN', async ({ request }) => {
  test.setTimeout(180_000)
  const endpoints = await adminEndpoints()
  const user = await staffWithRole(request, 'USER')
  const manager = await staffWithRole(request, 'MANAGER')
  const admin = (await asAdmin(request)).authorization.replace('Bearer ', '')
  const wrong: string[] = []
  let calls = 0
  for (const endpoint of endpoints) {
    const name = `${endpoint.method} ${endpoint.url} (${endpoint.access})`
    const anonymous = await call(request, endpoint)
    const asUser = await call(request, endpoint, user.token)
    const asManager = await call(request, endpoint, manager.token)
    const asAdminStatus = await call(request, endpoint, admin)
    calls += 4
    if (anonymous !== 401) wrong.push(`${name}: anonymous got ${anonymous}, not 401`)
    if (asUser !== 403) wrong.push(`${name}: USER got ${asUser}, not 403`)
    if (endpoint.access === 'admin' && asManager !== 403) wrong.push(`${name}: MANAGER got ${asManager} on an ADMIN-only route, not 403`)
    if (endpoint.access === 'console' && (asManager === 401 || asManager >= 500)) wrong.push(`${name}: MANAGER got ${asManager}`)
    if (asAdminStatus === 401 || asAdminStatus === 403 || asAdminStatus >= 500) wrong.push(`${name}: ADMIN got ${asAdminStatus}`)
  }
  figure('admin API endpoints (from app/api/admin)', endpoints.length)
  figure('admin API role calls', calls)
  figure('admin API wrong answers', wrong.length)
  expect(wrong).toEqual([])
})

test('an admin demoted to USER is refused on the next request', async ({ request }) => {
  const second = await staffWithRole(request, 'ADMIN')
  const headers = { authorization: `Bearer ${second.token}` }
  expect((await request.get('/api/admin/tasks', { headers })).status()).toBe(200)
  const demoted = await request.patch(`/api/admin/user/${second.id}`, { headers: await asAdmin(request), data: { role: 'USER' } })
  expect(demoted.ok(), await demoted.text()).toBeTruthy()
  const next = await request.get('/api/admin/tasks', { headers })
  // Changing the role ends the account's sessions (401); a kept session would still be refused (403).
  expect([401, 403]).toContain(next.status())
  figure('demoted admin, next request', next.status())
})

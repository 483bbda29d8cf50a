import { readFileSync } from 'node:fs'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { encode } from 'next-auth/jwt'
import { E2E_ADMIN, E2E_SECRETS_FILE } from './constants'

let counter = 0
/** A username no other test uses. */
export function uniqueName(prefix = 'u'): string {
  return `${prefix}${Date.now().toString(36)}${counter++}`
}

/**
 * A new user with a token. Made by the admin API and signed in, not through the sign-up
 * call: every spec's users come from 127.0.0.1, and sign-ups per address are throttled
 * (the specs that test sign-up itself still use the form).
 */
export async function registerViaApi(
  request: APIRequestContext,
  username = uniqueName(),
  password = 'e2e-password-9',
): Promise<{ username: string; password: string; token: string }> {
  const admin = await adminToken(request)
  const res = await request.post('/api/admin/user', {
    data: { username, name: username, password, role: 'USER' },
    headers: { authorization: `Bearer ${admin}` },
  })
  expect(res.ok(), await res.text()).toBeTruthy()
  return { username, password, token: await loginViaApi(request, username, password) }
}

export async function loginViaApi(request: APIRequestContext, username: string, password: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username, password } })
  expect(res.ok(), await res.text()).toBeTruthy()
  return (await res.json()).data.token
}

export const adminToken = (request: APIRequestContext) => loginViaApi(request, E2E_ADMIN.username, E2E_ADMIN.password)

/** Puts a token where the app keeps it (docs/PRODUCT.md §4.3), as a login would have. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.goto('/api/site-config/site-info')
  await page.evaluate((value) => window.localStorage.setItem('token', `Bearer ${value}`), token)
}

/** Signs in through the password form, like a person. */
export async function loginThroughUi(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login_by_password')
  await submitPasswordForm(page, username, password)
}

/** Fills in and sends the password form of the page the browser is on. */
export async function submitPasswordForm(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('用户名').fill(username)
  await page.getByLabel('密码', { exact: true }).fill(password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
}

/** The admin's Authorization header. */
export async function asAdmin(request: APIRequestContext): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await adminToken(request)}` }
}

/** A new user given points by an admin adjustment, signed in on the page. */
export async function userWithPoints(page: Page, request: APIRequestContext, points: number) {
  const user = await registerViaApi(request)
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  const adjusted = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...(await asAdmin(request)), 'Idempotency-Key': crypto.randomUUID() },
    data: { points, reason: 'e2e' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()
  await signInWithToken(page, user.token)
  return { ...user, id: me.id as string }
}

/**
 * Makes the user a member of a new image plan (`plan`: its days and benefits): the admin
 * creates it, gives its price as balance, the user pays it from the balance, and the plan
 * goes off sale again so no other page lists it.
 */
export async function makeMember(request: APIRequestContext, token: string, plan: { days: number; dailyPoints?: number; discountPercent?: number }) {
  const admin = await asAdmin(request)
  const created = await request.post('/api/admin/products', { headers: admin, data: { type: 'MEMBERSHIP', name: uniqueName('会员卡'), price: 100, ...plan } })
  expect(created.ok(), await created.text()).toBeTruthy()
  const planId = (await created.json()).data.id
  const auth = { authorization: `Bearer ${token}` }
  const me = (await (await request.get('/api/users/profile', { headers: auth })).json()).data
  const funded = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() },
    data: { balance: 100, reason: 'e2e 会员' },
  })
  expect(funded.ok(), await funded.text()).toBeTruthy()
  const bought = await request.post('/api/orders', { headers: auth, data: { productId: planId, type: 'MEMBERSHIP', channel: 'BALANCE' } })
  await request.patch(`/api/admin/products/${planId}`, { headers: admin, data: { enabled: false } })
  expect(bought.ok(), await bought.text()).toBeTruthy()
}

/**
 * A token of a user made by `registerViaApi` (token version 0) as the server would have
 * issued it `minutes` ago: a session signed in that long before. The token library reads
 * the clock with `new Date()`, so the clock is turned back while it runs.
 */
export async function tokenSignedInAgo(request: APIRequestContext, freshToken: string, minutes: number): Promise<string> {
  const me = await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${freshToken}` } })).json()
  const secret = (JSON.parse(readFileSync(E2E_SECRETS_FILE, 'utf8')) as { AUTH_SECRET: string }).AUTH_SECRET
  const RealDate = Date
  const then = RealDate.now() - minutes * 60_000
  globalThis.Date = class extends RealDate {
    constructor(...args: [] | [number]) {
      super(args.length ? args[0]! : then)
    }
    static now = () => then
  } as DateConstructor
  try {
    return await encode({ token: { sub: me.data.id, ver: 0 }, secret, maxAge: 7 * 24 * 60 * 60 })
  } finally {
    globalThis.Date = RealDate
  }
}

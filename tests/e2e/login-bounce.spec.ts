import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { registerViaApi, signInWithToken } from './support/session'

/** A token the server no longer honours (its user logged out everywhere), as a returning visitor keeps it. */
async function staleToken(request: APIRequestContext): Promise<string> {
  const old = await registerViaApi(request)
  const res = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${old.token}` } })
  expect(res.ok(), await res.text()).toBeTruthy()
  return old.token
}

/** Opens a page and waits for the app's first look at the (stale) session. */
async function openWithStaleSession(page: Page, path: string): Promise<void> {
  const profile = page.waitForResponse((r) => r.url().endsWith('/api/users/profile'))
  await page.goto(path)
  expect((await profile).status()).toBe(401)
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('用户名').fill(username)
  await page.getByLabel('密码', { exact: true }).fill(password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
}

test('with an expired session, signing in on /login_by_password opened directly lands on the home page', async ({ page, request }) => {
  const user = await registerViaApi(request)
  await signInWithToken(page, await staleToken(request))

  await openWithStaleSession(page, '/login_by_password')
  // The stale token is dropped and the form stays: no detour through /login.
  await expect(page).toHaveURL(/\/login_by_password$/)
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  await signIn(page, user.username, user.password)

  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
  await expect(page.getByText('欢迎回来')).toBeVisible()
})

test('a redirect that points at a sign-in page lands on the home page; a safe one is kept', async ({ page, request }) => {
  const user = await registerViaApi(request)
  await signInWithToken(page, await staleToken(request))

  // Where the old request layer sent such a visitor: the chooser, with the login page as the way back.
  await openWithStaleSession(page, '/login?redirect=%2Flogin_by_password')
  await page.getByRole('link', { name: /账号密码登录/ }).click()
  await expect(page).toHaveURL(/\/login_by_password$/)
  await signIn(page, user.username, user.password)
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)

  await page.evaluate(() => localStorage.clear())
  await page.goto(`/login_by_password?redirect=${encodeURIComponent('/bind_mobile?redirect=/account')}`)
  await signIn(page, user.username, user.password)
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByTestId('account-balance')).toBeVisible()
})

// 20 open-redirect payloads on the sign-in pages' ?redirect=: after a real sign-in through the
// form the browser is still on this site, it never asked another host for anything, and no
// javascript: URL ran.
import { registerViaApi } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const PAYLOADS = [
  '//evil.example',
  'https://evil.example',
  'http://evil.example/account',
  '/\\evil.example',
  '\\/evil.example',
  '/\\/evil.example',
  '///evil.example',
  '/.//evil.example',
  '//evil.example/%2f..',
  '/%2f%2fevil.example',
  '/%5cevil.example',
  '/\t/evil.example',
  ' //evil.example',
  'https:evil.example',
  'http://127.0.0.1@evil.example',
  '//evil%E3%80%82example',
  'javascript:window.__redirected=1',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/login?redirect=//evil.example',
]

test('20 open-redirect payloads on /login_by_password?redirect= never leave the site', async ({ page, request, baseURL }) => {
  test.setTimeout(180_000)
  expect(PAYLOADS).toHaveLength(20)
  const user = await registerViaApi(request)
  const site = new URL(baseURL!).host
  const offsite: string[] = []
  page.on('request', (req) => {
    const url = new URL(req.url())
    if (/^https?:$/.test(url.protocol) && url.host !== site) offsite.push(req.url())
  })
  page.on('dialog', (dialog) => {
    offsite.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  const landed: string[] = []
  for (const payload of PAYLOADS) {
    await page.goto('/api/site-config/site-info')
    await page.evaluate(() => localStorage.clear())
    await page.goto(`/login_by_password?redirect=${encodeURIComponent(payload)}`)
    await page.getByLabel('用户名').fill(user.username)
    await page.getByLabel('密码', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: '登录', exact: true }).click()
    await expect(page).not.toHaveURL(/\/login_by_password/)
    await page.waitForLoadState('networkidle')
    const url = new URL(page.url())
    expect(url.host, payload).toBe(site)
    expect(await page.evaluate(() => (window as unknown as { __redirected?: number }).__redirected)).toBeUndefined()
    landed.push(url.pathname)
  }
  figure('open-redirect payloads', PAYLOADS.length)
  figure('open-redirect payloads that left the site', offsite.length)
  expect(offsite).toEqual([])
  // The sign-in page bounce (/login?redirect=…) also ends on the site: everything landed on a path.
  expect(landed.every((p) => p.startsWith('/'))).toBe(true)
})

// Every HTML page (found from app/**/page.tsx, so a new page is covered by itself) carries
// the nonce CSP, Permissions-Policy and the static headers, and still works under them: Next's
// scripts run, the page shows its content, and the browser reports no CSP violation.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { adminToken, loginViaApi, uniqueName, signInWithToken } from './support/session'
import { expectPageSecurityHeaders } from './support/security-headers'
import { E2E_WECHAT } from './support/sign-in-fakes'

const APP_DIR = path.resolve(import.meta.dirname, '../../app')

/**
 * URL paths of the app's pages: route groups dropped. Pages with a dynamic segment need a real
 * item: tests/e2e/every-route.spec.ts visits them with one, on a desktop and a phone, and
 * checks the same headers there.
 */
async function pageRoutes(): Promise<string[]> {
  const files = (await readdir(APP_DIR, { recursive: true })).filter((f) => path.basename(f) === 'page.tsx' && !f.includes('['))
  return files
    .map((file) => {
      const segments = path
        .dirname(file)
        .split(path.sep)
        .filter((s) => s !== '.' && !/^\(.*\)$/.test(s))
      return `/${segments.join('/')}`
    })
    .sort()
}

type Check = { as: 'admin' | 'visitor'; url?: string; shows: (page: Page) => Promise<void> }
const heading = (name: string | RegExp) => async (page: Page) => expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()

/** What each page must show once it has run its scripts and called the API (others: their heading). */
const CHECKS: Record<string, Check> = {
  '/': { as: 'admin', shows: async (page) => expect(page.getByRole('button', { name: /admin|管理员/ }).first()).toBeVisible() },
  '/account': { as: 'admin', shows: async (page) => expect(page.getByTestId('account-balance')).toBeVisible() },
  '/profile': { as: 'admin', shows: async (page) => expect(page.getByText('用户名：admin')).toBeVisible() },
  '/my_cards': { as: 'admin', shows: heading('我的卡密') },
  '/text2img': { as: 'admin', shows: heading('文生图') },
  '/text2img_v2': { as: 'admin', shows: heading('AI 创作') },
  '/img_controlnet': { as: 'admin', shows: heading('线稿上色') },
  '/img_inpaint': { as: 'admin', shows: heading('局部重绘') },
  '/mj': { as: 'admin', shows: heading('Midjourney') },
  '/admin': {
    as: 'admin',
    shows: async (page) => {
      await expect(page).toHaveURL(/\/admin\/user_mana$/)
      await heading('用户管理')(page)
    },
  },
  '/admin/user_mana': {
    as: 'admin',
    shows: async (page) => {
      await heading('用户管理')(page)
      await expect(page.getByRole('row').nth(1)).toBeVisible() // the list came from the API
    },
  },
  '/admin/cards_mana': { as: 'admin', shows: heading('卡密列表') },
  '/admin/custom_model_mana': { as: 'admin', shows: heading('风格模型') },
  '/admin/model_mana': { as: 'admin', shows: heading('模型管理') },
  '/admin/prompt_mana': { as: 'admin', shows: heading('提示词管理') },
  '/admin/site_config': { as: 'admin', shows: async (page) => expect(page.getByLabel('站点名称')).toBeVisible() },
  '/admin/task_mana': { as: 'admin', shows: heading('任务管理') },
  '/bind_mobile': { as: 'admin', shows: heading('绑定手机号') },
  '/login': { as: 'visitor', shows: async (page) => expect(page.getByRole('link', { name: /账号密码登录/ })).toBeVisible() },
  '/login/fastlogin': { as: 'visitor', shows: heading('手机验证码登录') },
  '/login_by_password': { as: 'visitor', shows: async (page) => expect(page.getByLabel('用户名')).toBeVisible() },
  // The WeChat QR login: the QR image is a data: URL made by the client from the API's ticket.
  '/login_by_wechat': { as: 'visitor', shows: async (page) => expect(page.getByRole('img', { name: '微信登录二维码' })).toBeVisible() },
  '/wx_auth': { as: 'visitor', url: '/wx_auth?error=state', shows: heading('微信登录未完成') },
}

async function configure(request: APIRequestContext, settings: Record<string, string | boolean>) {
  const token = await adminToken(request)
  for (const [name, value] of Object.entries(settings)) {
    const res = await request.patch(`/api/site-config/${name}`, { data: { value }, headers: { authorization: `Bearer ${token}` } })
    expect(res.ok(), await res.text()).toBeTruthy()
  }
}

/** Every CSP report of the page, across its navigations: console errors and securitypolicyviolation events. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)|Permissions-Policy/i.test(msg.text())) violations.push(`console: ${msg.text()}`)
  })
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`))
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      ;(window as unknown as { __reportCspViolation: (t: string) => void }).__reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      )
    })
  })
  return violations
}

test.beforeAll(async ({ request }) => {
  await configure(request, { WX_ENABLED: true, WX_APP_ID: E2E_WECHAT.appId, WX_APP_SECRET: E2E_WECHAT.secret })
})
test.afterAll(async ({ request }) => {
  await configure(request, { WX_ENABLED: false, WX_APP_ID: '', WX_APP_SECRET: '' })
})

const ANY_PAGE: Check = { as: 'admin', shows: async (page) => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible() }

test('the pages are found from app/**/page.tsx', async () => {
  expect(await pageRoutes()).toEqual(expect.arrayContaining(Object.keys(CHECKS)))
})

test('every page sends the CSP with a fresh nonce and the other headers, and runs without a violation', async ({ page, request }) => {
  test.setTimeout(180_000)
  const violations = await watchViolations(page)
  const token = await adminToken(request)
  const nonces = new Set<string>()

  for (const route of await pageRoutes()) {
    const check = CHECKS[route] ?? ANY_PAGE
    await test.step(`${route} (${check.as})`, async () => {
      if (check.as === 'admin') await signInWithToken(page, token)
      else {
        await page.goto('/api/site-config/site-info')
        await page.evaluate(() => localStorage.clear())
      }
      const res = await page.goto(check.url ?? route)
      const nonce = expectPageSecurityHeaders(res!.headers(), route)
      expect(nonces.has(nonce), 'a nonce is never reused').toBe(false)
      nonces.add(nonce)

      // Every script tag of the served HTML carries this response's nonce.
      const scripts = (await res!.text()).match(/<script\b[^>]*>/g) ?? []
      expect(scripts.length).toBeGreaterThan(0)
      expect(
        scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`)),
        route,
      ).toEqual([])

      await check.shows(page)
      // Next's runtime booted: its nonced scripts ran.
      expect(await page.evaluate(() => typeof (window as unknown as { next?: { version?: string } }).next?.version)).toBe('string')
      await page.waitForLoadState('networkidle')
      // Soft, and emptied per route: one report names every page with a violation.
      expect.soft(violations.splice(0), route).toEqual([])
    })
  }
})

test('under the CSP, a user uploads a picture and generates: previews, progress and results all show, nothing is blocked', async ({ page, request }) => {
  const violations = await watchViolations(page)
  // Made by the admin, not registered: sign-ups per address are throttled and other specs need them.
  const admin = { authorization: `Bearer ${await adminToken(request)}` }
  const username = uniqueName('csp')
  const created = await request.post('/api/admin/user', { headers: admin, data: { username, name: username, password: 'csp-password-1' } })
  expect(created.ok(), await created.text()).toBeTruthy()
  const { id } = (await created.json()).data
  expect(
    (await request.post(`/api/admin/user/${id}/adjust`, { headers: admin, data: { points: 20, reason: 'e2e', requestId: crypto.randomUUID() } })).ok(),
  ).toBeTruthy()
  await signInWithToken(page, await loginViaApi(request, username, 'csp-password-1'))
  const loaded = (name: RegExp) => page.getByRole('img', { name }).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth > 0))

  // An upload (stored under /files, shown back) and the mask canvas over it.
  await page.goto('/img_inpaint')
  const picture = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#3b82f6' } })
    .png()
    .toBuffer()
  await page.getByLabel('原图').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: picture })
  await expect(page.getByLabel('蒙版画布')).toBeVisible()
  await expect.poll(() => loaded(/原图/)).toEqual(expect.arrayContaining([true]))

  // A generation: the progress bar (an inline style) and the stored results.
  await page.goto('/text2img')
  // The demo renderer (the model list shows only when there are several).
  const model = page.getByLabel('模型')
  if (await model.count()) await model.selectOption({ label: '演示渲染器（1 积分/张）' })
  await page.getByLabel('提示词', { exact: true }).fill('CSP 下的灯塔')
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await expect.poll(() => loaded(/生成结果/)).toEqual([true])
  await page.waitForLoadState('networkidle')
  expect(violations).toEqual([])
})

test("an unknown address gets Next's 404 page under the same CSP, without a violation", async ({ page }) => {
  const violations = await watchViolations(page)
  const res = await page.goto('/no-such-page')
  expect(res!.status()).toBe(404)
  expect(res!.headers()['content-security-policy']).toMatch(/'nonce-[^']+' 'strict-dynamic'/)
  await expect(page.getByText(/404|找不到|不存在/).first()).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(violations).toEqual([])
})

test('API answers and public files are not pages: no CSP work there, the static headers stay', async ({ request }) => {
  for (const url of ['/api/site-config/site-info', '/imgs/logo.svg']) {
    const res = await request.get(url)
    expect(res.ok(), url).toBeTruthy()
    expect(res.headers()['content-security-policy'], url).toBeUndefined()
    expect(res.headers()['x-content-type-options'], url).toBe('nosniff')
  }
})

// 50 XSS payloads as task prompts and as display names, shown back on the pages that list them
// (the user's own creation page and account menu, the console's task and user lists) while
// Chromium watches: a payload that ran would call _x() (set up before any page script) or open
// a dialog. Chat messages carry the same payloads in chat-xss.spec.ts.
import { asAdmin, signInWithToken, uniqueName, loginViaApi } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'
import { PAYLOADS, watchForScripts } from './support/xss-payloads'

test('50 XSS payloads as prompts and names run nowhere they are shown', async ({ page, request }) => {
  test.setTimeout(240_000)
  expect(PAYLOADS).toHaveLength(50)
  const admin = await asAdmin(request)
  const adminToken = admin.authorization.replace('Bearer ', '')

  // Names: one account per payload that fits a display name (32 characters), made by the admin.
  let names = 0
  let owner = { id: '', token: '' }
  for (const payload of PAYLOADS.filter((p) => p.length <= 32)) {
    const username = uniqueName('xss')
    const created = await request.post('/api/admin/user', { headers: admin, data: { username, name: payload, password: 'xss-password-1', role: 'USER' } })
    expect(created.ok(), await created.text()).toBeTruthy()
    names++
    if (!owner.id) owner = { id: (await created.json()).data.id, token: await loginViaApi(request, username, 'xss-password-1') }
  }
  // The longer ones cannot be a name: refused as too long, no account made.
  let tooLong = 0
  for (const payload of PAYLOADS.filter((p) => p.length > 32)) {
    const created = await request.post('/api/admin/user', { headers: admin, data: { username: uniqueName('xss'), name: payload, password: 'xss-password-1' } })
    expect(created.status(), `${payload}: ${await created.text()}`).toBe(400)
    tooLong++
  }
  // Prompts: every payload as a task prompt of one user (the demo renderer, 1 point each).
  const adjusted = await request.post(`/api/admin/user/${owner.id}/adjust`, {
    headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() },
    data: { points: 60, reason: 'xss' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()
  let prompts = 0
  for (const prompt of PAYLOADS) {
    const submit = () =>
      request.post('/api/tasks', { headers: { authorization: `Bearer ${owner.token}` }, data: { type: 'SD_TEXT2IMG', params: { prompt, count: 1 } } })
    let res = await submit()
    // At most 4 tasks run per user: wait for the demo renderer to finish some.
    for (let i = 0; res.status() === 429 && i < 120; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      res = await submit()
    }
    if (res.ok()) prompts++
    else expect(res.status(), `${prompt}: ${await res.text()}`).toBe(400)
  }

  const executions = await watchForScripts(page)
  const seen: string[] = []
  const visit = async (url: string, token: string) => {
    await signInWithToken(page, token)
    await page.goto(url)
    await page.waitForLoadState('networkidle')
    seen.push(url)
  }
  // The owner sees their prompts (history) and their name (menu, profile).
  await visit('/text2img', owner.token)
  await visit('/profile', owner.token)
  // The console lists every name and prompt, 20 a page: all three pages of each.
  for (const url of ['/admin/user_mana', '/admin/task_mana']) {
    await visit(url, adminToken)
    // The payloads are there, shown as text.
    await expect(page.getByText(/_x\(\)/).first()).toBeVisible()
    const next = page.getByRole('button', { name: '下一页' })
    for (let pageNo = 2; pageNo <= 3 && (await next.isEnabled()); pageNo++) {
      await next.click()
      await expect(page.getByRole('button', { name: String(pageNo), exact: true })).toHaveAttribute('aria-current', 'page')
      await page.waitForLoadState('networkidle')
      seen.push(`${url} page ${pageNo}`)
    }
  }
  const ran = await executions()
  figure('XSS payloads stored as names (refused as too long) / prompts', `${names} (${tooLong}) / ${prompts}`)
  figure('XSS pages watched', seen.length)
  figure('XSS payloads that ran', ran)
  expect(ran).toBe(0)
})

import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { adminToken, registerViaApi, uniqueName, signInWithToken } from './support/session'

// The console's dialogs (Radix): focus stays where the user put it while the page behind
// refreshes itself, Escape closes and focus goes back to the opener. And tables on a
// phone: rows are cards, so 使用 on /my_cards and the amounts on /account are on screen.

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function profileId(request: APIRequestContext, token: string): Promise<string> {
  return (await (await request.get('/api/users/profile', { headers: bearer(token) })).json()).data.id
}

/** Nothing on the page is wider than the screen: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
  // /account has two tables (订单记录 and 收支明细): every one of them.
  for (const table of await page.getByRole('table').all()) {
    expect(await table.locator('xpath=..').evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0)
  }
}

test('the model form keeps the focus and the typed text while /admin/model_mana refreshes behind it', async ({ page, request }) => {
  const admin = await adminToken(request)
  const created = await request.post('/api/admin/models', {
    headers: bearer(admin),
    data: { name: uniqueName('焦点'), backend: 'demo', prices: { SD_TEXT2IMG: 1 }, sort: 95 },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const modelId = (await created.json()).data.id
  // A busy backend, as the page sees it: each answer of the list has another queue length,
  // so the list refreshes itself every 2.5 s and the page re-renders with new figures.
  let refreshes = 0
  await page.route('**/api/admin/models', async (route) => {
    if (route.request().method() !== 'GET') return route.continue()
    const response = await route.fetch()
    const body = await response.json()
    refreshes++
    for (const model of body.data) if (model.id === modelId) model.queued = refreshes
    await route.fulfill({ response, json: body })
  })

  await signInWithToken(page, admin)
  await page.goto('/admin/model_mana')
  await expect(page.getByRole('heading', { name: '模型管理' })).toBeVisible()
  await page.getByRole('button', { name: '新建模型' }).click()
  const form = page.getByRole('dialog', { name: '新建模型' })
  // Focus moves into the dialog once, to its first field.
  await expect(form.getByLabel('名称')).toBeFocused()

  const checkpoint = form.getByLabel('Checkpoint（可选）')
  await checkpoint.click()
  await page.keyboard.type('sd15-base')
  const before = refreshes
  // Past two refresh cycles of the list behind the dialog.
  await page.waitForTimeout(6_000)
  expect(refreshes - before).toBeGreaterThanOrEqual(2)
  await expect(checkpoint).toBeFocused()
  await page.keyboard.type('-v2')
  await expect(checkpoint).toHaveValue('sd15-base-v2')
  await expect(form.getByLabel('名称')).toHaveValue('')

  // Escape closes it, and the focus is back on the button that opened it.
  await page.keyboard.press('Escape')
  await expect(form).toBeHidden()
  await expect(page.getByRole('button', { name: '新建模型' })).toBeFocused()
  // The list keeps refreshing: a refresh still in the handler when the page closes would
  // read an answer Playwright has already disposed of and fail the test after it passed.
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('a confirmation dialog keeps the focus inside while open, names itself and describes what it asks', async ({ page, request }) => {
  const admin = await adminToken(request)
  const name = uniqueName('删除确认')
  expect(
    (await request.post('/api/admin/prompts', { headers: bearer(admin), data: { category: 'e2e', title: name, prompt: 'a quiet lake' } })).ok(),
  ).toBeTruthy()
  await signInWithToken(page, admin)
  await page.goto('/admin/prompt_mana')
  const opener = page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '删除' })
  await opener.click()
  const dialog = page.getByRole('dialog', { name: '删除提示词' })
  await expect(dialog).toHaveAccessibleDescription(`确定删除提示词 ${name} 吗？`)
  // Tab goes round the dialog's two buttons, never out to the page.
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  }
  await dialog.getByRole('button', { name: '取消' }).click()
  await expect(dialog).toBeHidden()
  await expect(opener).toBeFocused()
})

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test('/my_cards shows 使用 without scrolling sideways, and /account shows the amounts', async ({ page, request }) => {
    const admin = await adminToken(request)
    const key = `W${Date.now().toString(36).toUpperCase()}PHONE`
    const { batchId } = (await (await request.post('/api/admin/cards/batch_import', { headers: bearer(admin), data: { cards: [key], points: 7 } })).json()).data
    let cardId = 0
    await expect(async () => {
      const card = (await (await request.get(`/api/admin/cards?batchId=${batchId}`, { headers: bearer(admin) })).json()).data.list[0]
      expect(card.status).toBe('SUCCESS')
      cardId = card.id
    }).toPass({ timeout: 15_000 })
    const user = await registerViaApi(request)
    const userId = await profileId(request, user.token)
    expect((await request.post(`/api/admin/cards/${cardId}/assign`, { headers: bearer(admin), data: { userId } })).ok()).toBeTruthy()
    const adjusted = await request.post(`/api/admin/user/${userId}/adjust`, {
      headers: { ...bearer(admin), 'Idempotency-Key': crypto.randomUUID() },
      data: { points: 1234, balance: 98765, reason: 'e2e 手机补发' },
    })
    expect(adjusted.ok(), await adjusted.text()).toBeTruthy()

    await signInWithToken(page, user.token)
    await page.goto('/my_cards')
    await expect(page.getByRole('heading', { name: '我的卡密' })).toBeVisible()
    const use = page.getByRole('button', { name: '使用' })
    await expect(use).toBeInViewport({ ratio: 1 })
    await expect(page.getByText('未使用')).toBeInViewport({ ratio: 1 })
    await expectNoSidewaysScroll(page)
    await use.click()
    await expect(page.getByText('兑换成功，获得 7 积分')).toBeVisible()

    await page.goto('/account')
    await expect(page.getByTestId('account-points')).toHaveText('1241')
    const balanceRow = page.getByRole('row').filter({ hasText: '+¥987.65' })
    await balanceRow.scrollIntoViewIfNeeded()
    for (const amount of ['+¥987.65', '¥987.65']) await expect(balanceRow.getByText(amount, { exact: true })).toBeInViewport({ ratio: 1 })
    const cardRow = page.getByRole('row').filter({ hasText: '卡密兑换' })
    await cardRow.scrollIntoViewIfNeeded()
    await expect(cardRow.getByText('+7', { exact: true })).toBeInViewport({ ratio: 1 })
    await expect(cardRow.getByText('1241', { exact: true })).toBeInViewport({ ratio: 1 })
    await expectNoSidewaysScroll(page)
  })
})

import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test'
import { adminToken, asAdmin, loginViaApi, registerViaApi, signInWithToken, uniqueName } from './support/session'
import { pauseWorker, resumeWorker } from './support/worker'

const keys = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}XYZ`)

/** The site's CARD_DEFAULT_POINTS as the console's settings show it. */
async function defaultCardPoints(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get('/api/site-config', { headers: { authorization: `Bearer ${token}` } })
  const item = (await res.json()).data.items.find((i: { name: string }) => i.name === 'CARD_DEFAULT_POINTS')
  expect(typeof item?.value).toBe('number')
  return item.value
}

/** Waits until a card (by batch) is ready, through the admin API. */
async function waitReady(request: APIRequestContext, token: string, batchId: number): Promise<{ id: number }> {
  let card = { id: 0 }
  await expect(async () => {
    const res = await request.get(`/api/admin/cards?batchId=${batchId}`, { headers: { authorization: `Bearer ${token}` } })
    card = (await res.json()).data.list[0]
    expect(card).toMatchObject({ status: 'SUCCESS' })
  }).toPass({ timeout: 15_000 })
  return card
}

async function openImportDialog(page: Page) {
  await page.getByRole('button', { name: '批量导入' }).click()
  return page.getByRole('dialog', { name: '批量导入卡密' })
}

test('the admin imports keys, watches them turn ready and pages through them', async ({ page, request }) => {
  const token = await adminToken(request)
  await signInWithToken(page, token)
  await page.goto('/admin/cards_mana')
  await expect(page.getByRole('heading', { name: '卡密列表' })).toBeVisible()

  // Blank input: an error toast and no request.
  let dialog = await openImportDialog(page)
  await expect(dialog.getByPlaceholder('请输入卡密，每行一个')).toHaveAttribute('rows', '10')
  // The optional points field says what leaving it empty gives: the site's default, as a number.
  const defaultPoints = await defaultCardPoints(request, token)
  await expect(dialog.getByText(`留空则使用站点默认积分：${defaultPoints}`)).toBeVisible()
  await expect(dialog.getByLabel('每张积分（可选）')).toHaveAttribute('placeholder', String(defaultPoints))
  await dialog.getByPlaceholder('请输入卡密，每行一个').fill('   \n  ')
  let calls = 0
  page.on('request', (r) => r.url().includes('/batch_import') && calls++)
  await dialog.getByRole('button', { name: '导入' }).click()
  await expect(page.getByText('请输入卡密')).toBeVisible()
  expect(calls).toBe(0)
  await dialog.getByRole('button', { name: '取消' }).click()
  await expect(dialog).toBeHidden()

  // With the worker paused the cards stay PENDING; the page keeps refreshing by itself.
  await pauseWorker()
  try {
    const prefix = `P${Date.now().toString(36).toUpperCase()}`
    dialog = await openImportDialog(page)
    await dialog.getByPlaceholder('请输入卡密，每行一个').fill(['', ...keys(prefix, 45).map((k) => `  ${k}  `), ''].join('\n'))
    await dialog.getByLabel('每张积分（可选）').fill('25')
    await dialog.getByLabel('批次备注（可选）').fill('双十一活动')
    await dialog.getByRole('button', { name: '导入' }).click()
    await expect(page.getByText('导入成功')).toBeVisible()
    await expect(page.getByText('总计 45 条')).toBeVisible()
    const table = page.locator('tbody')
    await expect(table.getByText('校验中')).toHaveCount(20)
    await expect(table.getByText('可用')).toHaveCount(0)
  } finally {
    await resumeWorker()
  }
  await expect(page.locator('tbody').getByText('校验中')).toHaveCount(0, { timeout: 15_000 })
  await expect(page.getByRole('row').filter({ hasText: '可用' })).toHaveCount(20)

  // Every row on the page is ready: the list stops refreshing itself (it refreshes only
  // while a card is PENDING), so no GET /api/admin/cards goes out for the next 6 s.
  let listRequests = 0
  const countListRequest = (r: Request) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === '/api/admin/cards') listRequests++
  }
  page.on('request', countListRequest)
  await page.waitForTimeout(6_000)
  page.off('request', countListRequest)
  expect(listRequests).toBe(0)

  // The key column is masked: first 3, six stars, last 3.
  await expect(page.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText(/^P\w{2}\*{6}XYZ$/)

  await page.getByRole('navigation', { name: '分页' }).getByRole('button', { name: '3', exact: true }).click()
  await expect(page.getByRole('row')).toHaveCount(1 + 5)
  await expect(page.getByText('总计 45 条')).toBeVisible()
  await page.getByRole('button', { name: '上一页' }).click()
  await expect(page.getByRole('row')).toHaveCount(1 + 20)
})

test('a user redeems a key on /my_cards and sees the points on /account', async ({ page, request }) => {
  const admin = await adminToken(request)
  const key = `R${Date.now().toString(36).toUpperCase()}KEY01`
  const imported = await request.post('/api/admin/cards/batch_import', { headers: { authorization: `Bearer ${admin}` }, data: { cards: [key], points: 88 } })
  expect(imported.ok()).toBeTruthy()
  await expect(async () => {
    const res = await request.get(`/api/admin/cards?batchId=${(await imported.json()).data.batchId}`, { headers: { authorization: `Bearer ${admin}` } })
    expect((await res.json()).data.list[0].status).toBe('SUCCESS')
  }).toPass({ timeout: 15_000 })

  const user = await registerViaApi(request)
  await signInWithToken(page, user.token)
  await page.goto('/my_cards')
  await expect(page.getByRole('heading', { name: '我的卡密' })).toBeVisible()
  await expect(page.getByText('还没有卡密')).toBeVisible()

  await page.getByLabel('卡密').fill('NOT-A-REAL-KEY')
  await page.getByRole('button', { name: '兑换' }).click()
  await expect(page.getByText('卡密不存在，请检查后重试')).toBeVisible()

  await page.getByLabel('卡密').fill(key)
  await page.getByRole('button', { name: '兑换' }).click()
  await expect(page.getByText('兑换成功，获得 88 积分')).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: `${key.slice(0, 3)}******${key.slice(-3)}` })
  await expect(row).toContainText('已使用')

  await page.goto('/account')
  await expect(page.getByTestId('account-points')).toHaveText('88')
  await expect(page.getByRole('row').filter({ hasText: '卡密兑换' })).toContainText('+88')
})

test('a card handed to a user shows as 未使用 and can be used with one click', async ({ page, request }) => {
  const admin = await adminToken(request)
  const auth = { authorization: `Bearer ${admin}` }
  const key = `H${Date.now().toString(36).toUpperCase()}KEY02`
  const { batchId } = (await (await request.post('/api/admin/cards/batch_import', { headers: auth, data: { cards: [key], points: 12 } })).json()).data
  let cardId = 0
  await expect(async () => {
    const card = (await (await request.get(`/api/admin/cards?batchId=${batchId}`, { headers: auth })).json()).data.list[0]
    expect(card.status).toBe('SUCCESS')
    cardId = card.id
  }).toPass({ timeout: 15_000 })
  const user = await registerViaApi(request)
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  expect((await request.post(`/api/admin/cards/${cardId}/assign`, { headers: auth, data: { userId: me.id } })).ok()).toBeTruthy()

  await signInWithToken(page, user.token)
  await page.goto('/my_cards')
  const status = page.getByText('未使用')
  await expect(status).toBeVisible()
  // docs/PRODUCT.md §2.5: 未使用 is shown in green (the browser reports the colour in CIE Lab: a* < 0 is green).
  const color = await status.evaluate((el) => getComputedStyle(el).color)
  const [, , a] = /lab\(([\d.]+) (-?[\d.]+) (-?[\d.]+)/.exec(color) ?? []
  expect(Number(a), color).toBeLessThan(-20)
  await page.getByRole('button', { name: '使用' }).click()
  await expect(page.getByText('兑换成功，获得 12 积分')).toBeVisible()
  await expect(page.getByText('未使用')).toHaveCount(0)
  await expect(page.getByText(/已使用 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)).toBeVisible()
})

test('a MANAGER sees the card list and may disable cards, but gets no import, assign or export', async ({ page, request }) => {
  const admin = await adminToken(request)
  const auth = { authorization: `Bearer ${admin}` }
  const { batchId } = (
    await (await request.post('/api/admin/cards/batch_import', { headers: auth, data: { cards: [`M${Date.now().toString(36).toUpperCase()}KEY03`] } })).json()
  ).data
  await waitReady(request, admin, batchId)

  const person = await registerViaApi(request)
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${person.token}` } })).json()).data
  expect((await request.patch(`/api/admin/user/${me.id}`, { headers: auth, data: { role: 'MANAGER' } })).ok()).toBeTruthy()
  await signInWithToken(page, await loginViaApi(request, person.username, person.password))
  await page.goto('/admin/cards_mana')
  // The page renders only once the profile (and so the role) is known.
  await expect(page.getByRole('heading', { name: '卡密列表' })).toBeVisible()
  await expect(page.getByRole('button', { name: '停用' }).first()).toBeVisible()
  await expect(page.getByRole('button', { name: '批量导入' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: '导出可用卡密' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: '分配' })).toHaveCount(0)

  // The same page for the ADMIN has all three.
  await signInWithToken(page, admin)
  await page.goto('/admin/cards_mana')
  await expect(page.getByRole('button', { name: '批量导入' })).toBeVisible()
  await expect(page.getByRole('button', { name: '导出可用卡密' })).toBeVisible()
  await expect(page.getByRole('button', { name: '分配' }).first()).toBeVisible()
})

test("an admin assigns a card from the console; a filter or an emptied search never shows another one's rows", async ({ page, request }) => {
  const admin = await adminToken(request)
  const auth = { authorization: `Bearer ${admin}` }
  const key = `A${Date.now().toString(36).toUpperCase()}KEY04`
  const { batchId } = (await (await request.post('/api/admin/cards/batch_import', { headers: auth, data: { cards: [key] } })).json()).data
  const { cardNo } = await waitReady(request, admin, batchId).then(async ({ id }) => {
    const list = (await (await request.get(`/api/admin/cards?batchId=${batchId}`, { headers: auth })).json()).data.list
    return list.find((c: { id: number }) => c.id === id) as { cardNo: string }
  })
  const person = await registerViaApi(request)

  await signInWithToken(page, admin)
  await page.goto('/admin/cards_mana')
  const row = page.getByRole('row').filter({ hasText: cardNo })
  await expect(row).toHaveCount(1)
  // A filter chosen on a slow network: 加载中... until its own rows arrive, not the last filter's.
  await page.route('**/api/admin/cards?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await route.fallback()
  })
  await page.getByLabel('状态').selectOption({ label: '无效' })
  await expect(page.getByText('加载中...')).toBeVisible()
  expect(await row.count()).toBe(0)
  await page.getByLabel('状态').selectOption({ label: '全部状态' })
  await expect(row).toHaveCount(1)
  await page.unrouteAll({ behavior: 'ignoreErrors' })

  await row.getByRole('button', { name: '分配' }).click()
  const dialog = page.getByRole('dialog', { name: `分配卡密 ${cardNo}` })
  const search = dialog.getByLabel('查找用户')
  await search.fill(person.username)
  await expect(dialog.getByRole('button', { name: new RegExp(person.username) })).toBeVisible()
  // An emptied box lists nobody, so nobody from an earlier search can be picked.
  await search.fill('')
  await expect(dialog.getByRole('listitem')).toHaveCount(0)
  await search.fill(person.username)
  await dialog.getByRole('button', { name: new RegExp(person.username) }).click()
  await dialog.getByRole('button', { name: '分配' }).click()
  await expect(page.getByText(`已分配给 ${person.username}`)).toBeVisible()
  const mine = (await (await request.get('/api/my-cards', { headers: { authorization: `Bearer ${person.token}` } })).json()).data
  expect(mine).toHaveLength(1)
})

test('an admin adjustment retried after a lost answer is booked once; reopening the dialog is a new one', async ({ page, request }) => {
  const admin = await adminToken(request)
  const person = await registerViaApi(request)
  const pointsOf = async () => (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${person.token}` } })).json()).data.points

  // The dialog's Idempotency-Key of each try that went out.
  const requestIds: Array<string | undefined> = []
  await page.route('**/api/admin/user/*/adjust', async (route) => {
    requestIds.push((await route.request().allHeaders())['idempotency-key'])
    if (requestIds.length > 1) return route.continue()
    // The first try reaches the server and is booked, but its answer is lost on the way back.
    await route.fetch()
    await route.abort('failed')
  })
  await signInWithToken(page, admin)
  await page.goto('/admin/user_mana')
  await page.getByLabel('搜索用户').fill(person.username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: person.username })
  await expect(row).toHaveCount(1)

  await row.getByRole('button', { name: '调整' }).click()
  let dialog = page.getByRole('dialog', { name: `调整 ${person.username} 的积分/余额` })
  await dialog.getByLabel('积分变动').fill('30')
  await dialog.getByLabel('调整原因').fill('e2e 补发')
  await dialog.getByRole('button', { name: '确认调整' }).click()
  await expect(page.getByText('网络异常，请检查网络或联系管理员')).toBeVisible()
  await expect(dialog).toBeVisible()
  expect(await pointsOf()).toBe(30) // booked, though the dialog never heard

  await dialog.getByRole('button', { name: '确认调整' }).click()
  await expect(page.getByText('调整成功')).toBeVisible()
  await expect(dialog).toBeHidden()
  expect(await pointsOf()).toBe(30) // the retry was answered, not booked again
  expect(requestIds).toHaveLength(2)
  expect(requestIds[1]).toBe(requestIds[0])
  expect(requestIds[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

  await row.getByRole('button', { name: '调整' }).click()
  dialog = page.getByRole('dialog', { name: `调整 ${person.username} 的积分/余额` })
  await dialog.getByLabel('积分变动').fill('30')
  await dialog.getByLabel('调整原因').fill('e2e 第二笔')
  await dialog.getByRole('button', { name: '确认调整' }).click()
  await expect(dialog).toBeHidden()
  expect(await pointsOf()).toBe(60)
  expect(requestIds).toHaveLength(3)
  expect(requestIds[2]).not.toBe(requestIds[0])
})

test('an admin who adjusts their own points sees the new points in the header menu', async ({ page, request }) => {
  const username = uniqueName('admin')
  const created = await request.post('/api/admin/user', {
    headers: await asAdmin(request),
    data: { username, name: username, password: 'e2e-password-9', role: 'ADMIN' },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  await signInWithToken(page, await loginViaApi(request, username, 'e2e-password-9'))
  await page.goto('/admin/user_mana')
  await page.getByLabel('搜索用户').fill(username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: username })
  await expect(row).toHaveCount(1)
  const menu = page.getByRole('button', { name: username, exact: true })
  await menu.click()
  await expect(page.getByRole('menu')).toContainText('积分 0')
  await menu.click()

  await row.getByRole('button', { name: '调整' }).click()
  const dialog = page.getByRole('dialog', { name: `调整 ${username} 的积分/余额` })
  await dialog.getByLabel('积分变动').fill('12')
  await dialog.getByLabel('调整原因').fill('e2e 自己')
  await dialog.getByRole('button', { name: '确认调整' }).click()
  await expect(page.getByText('调整成功')).toBeVisible()
  await menu.click()
  await expect(page.getByRole('menu')).toContainText('积分 12')
})

test('an admin exports a batch’s new keys once: they show 已导出, cannot be assigned, and are not exported as new again', async ({ page, request }) => {
  const admin = await adminToken(request)
  const auth = { authorization: `Bearer ${admin}` }
  const batchKeys = keys(`E${Date.now().toString(36).toUpperCase()}`, 2)
  const { batchId } = (await (await request.post('/api/admin/cards/batch_import', { headers: auth, data: { cards: batchKeys, note: '导出测试' } })).json()).data
  await waitReady(request, admin, batchId)

  await signInWithToken(page, admin)
  await page.goto('/admin/cards_mana')
  await page.getByLabel('批次').selectOption({ value: String(batchId) })
  // Both keys of the batch have the same masked form: first 3, six stars, XYZ.
  const rows = page.getByRole('row').filter({ hasText: `${batchKeys[0]!.slice(0, 3)}******XYZ` })
  await expect(rows).toHaveCount(2)
  await expect(rows.first().getByRole('button', { name: '分配' })).toBeEnabled()

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: '导出新卡密' }).click()
  const file = await (await download).path()
  const text = (await import('node:fs')).readFileSync(file, 'utf8')
  for (const key of batchKeys) expect(text).toContain(key)
  // The list refreshes: both are marked, and neither can be handed to a user now.
  await expect(rows.filter({ hasText: '已导出' })).toHaveCount(2)
  await expect(rows.first().getByRole('button', { name: '分配' })).toBeDisabled()

  await page.getByRole('button', { name: '导出新卡密' }).click()
  await expect(page.getByText('没有未导出过的可用卡密')).toBeVisible()
})

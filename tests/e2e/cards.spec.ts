import { expect, test, type Page } from '@playwright/test'
import { adminToken, registerViaApi, useToken } from './support/session'
import { pauseWorker, resumeWorker } from './support/worker'

const keys = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}XYZ`)

async function openImportDialog(page: Page) {
  await page.getByRole('button', { name: '批量导入' }).click()
  return page.getByRole('dialog', { name: '批量导入卡密' })
}

test('the admin imports keys, watches them turn ready and pages through them', async ({ page, request }) => {
  await useToken(page, await adminToken(request))
  await page.goto('/admin/cards_mana')
  await expect(page.getByRole('heading', { name: '卡密列表' })).toBeVisible()

  // Blank input: an error toast and no request.
  let dialog = await openImportDialog(page)
  await expect(dialog.getByPlaceholder('请输入卡密，每行一个')).toHaveAttribute('rows', '10')
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
  await useToken(page, user.token)
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

  await useToken(page, user.token)
  await page.goto('/my_cards')
  const status = page.getByText('未使用')
  await expect(status).toBeVisible()
  // SPEC: 未使用 is shown in green (the browser reports the colour in CIE Lab: a* < 0 is green).
  const color = await status.evaluate((el) => getComputedStyle(el).color)
  const [, , a] = /lab\(([\d.]+) (-?[\d.]+) (-?[\d.]+)/.exec(color) ?? []
  expect(Number(a), color).toBeLessThan(-20)
  await page.getByRole('button', { name: '使用' }).click()
  await expect(page.getByText('兑换成功，获得 12 积分')).toBeVisible()
  await expect(page.getByText('未使用')).toHaveCount(0)
  await expect(page.getByText(/已使用 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)).toBeVisible()
})

import { expect, test, type Page } from '@playwright/test'
import { adminToken, registerViaApi, signInWithToken } from './support/session'
import { at, first } from '../helpers/present'

type Seen = { status: string; percent: number | null; image: boolean; at: number }

/** Everything the result card said while the task ran, as the page showed it (status text, percentage, when). */
async function recordStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Array<{ status: string; percent: number | null; image: boolean; at: number }> = []
    ;(window as unknown as { __seen: typeof seen }).__seen = seen
    const note = () => {
      const card = document.querySelector('[data-testid="task-status"]')?.parentElement
      if (!card) return
      const status = card.querySelector('[data-testid="task-status"] span')?.textContent ?? ''
      const bar = card.querySelector('[role="progressbar"]')
      const percent = bar ? Number(bar.getAttribute('aria-valuenow')) : null
      const image = Boolean(card.querySelector('img'))
      const last = seen.at(-1)
      if (!last || last.status !== status || last.percent !== percent || last.image !== image) seen.push({ status, percent, image, at: performance.now() })
    }
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
  })
}

test('on /text2img the demo renderer’s task goes through its stages with a moving percentage before the image shows', async ({ page, request }) => {
  const user = await registerViaApi(request)
  const auth = { authorization: `Bearer ${await adminToken(request)}` }
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  expect(
    (await request.post(`/api/admin/user/${me.id}/adjust`, { headers: auth, data: { points: 10, reason: 'e2e 进度', requestId: crypto.randomUUID() } })).ok(),
  ).toBeTruthy()
  await signInWithToken(page, user.token)

  // The stream of task changes is open while the task runs: the stages arrive as pushes.
  const stream = page.waitForRequest((r) => r.url().endsWith('/api/tasks/events'))
  await page.goto('/text2img')
  const models = page.getByLabel('模型')
  // The picker shows only once the models have loaded (and only when there is a choice).
  await expect(page.getByTestId('task-cost')).toBeVisible()
  if (await models.count()) {
    const demo = await models
      .locator('option', { hasText: /^演示渲染器（/ })
      .first()
      .getAttribute('value')
    await models.selectOption(demo!)
  }
  await page.getByLabel('提示词', { exact: true }).fill('清晨的竹林，薄雾')
  await recordStatus(page)
  await page.getByRole('button', { name: '立即生成' }).click()
  await stream
  await expect(page.getByRole('img', { name: '生成结果 1' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('task-status')).toContainText('成功')

  const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen)
  const imageAt = seen.findIndex((s) => s.image)
  const beforeImage = seen.slice(0, imageAt)
  const stages = new Set(beforeImage.map((s) => s.status.replace(/（.*）$/, '')).filter((s) => ['排队中', '提交中', '生成中'].includes(s)))
  expect(stages.size, JSON.stringify(seen)).toBeGreaterThanOrEqual(2)
  const percents = [...new Set(beforeImage.map((s) => s.percent).filter((p): p is number => p !== null))]
  expect(percents.filter((p) => p > 0 && p < 100).length, JSON.stringify(seen)).toBeGreaterThanOrEqual(1)
  expect(percents.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(2)
  expect(percents, 'the percentage only moves forward').toEqual([...percents].sort((a, b) => a - b))
  // Long enough to read: the demo's pace (10 steps of 250 ms) keeps the stages on screen for seconds, not a blink.
  expect(at(seen, imageAt).at - first(beforeImage).at, JSON.stringify(seen)).toBeGreaterThan(2000)
})

import { expect, test, type APIRequestContext } from '@playwright/test'
import { asAdmin, registerViaApi, signInWithToken, uniqueName } from './support/session'

/** More works than one page of the wall (30), so scrolling loads the next page. */
const WORKS = 34

let modelId = ''

async function adjustPoints(request: APIRequestContext, token: string, points: number) {
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${token}` } })).json()).data
  const res = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...(await asAdmin(request)), 'Idempotency-Key': crypto.randomUUID() },
    data: { points, reason: 'e2e' },
  })
  expect(res.ok(), await res.text()).toBeTruthy()
}

/** Generates finished tasks for a user (a few at a time: the pending limit), returning their ids. */
async function generate(request: APIRequestContext, token: string, prompts: string[]): Promise<string[]> {
  const auth = { authorization: `Bearer ${token}` }
  const ids: string[] = []
  for (let i = 0; i < prompts.length; i += 4) {
    const batch = await Promise.all(
      prompts.slice(i, i + 4).map(async (prompt) => {
        const res = await request.post('/api/tasks', {
          headers: auth,
          data: { type: 'SD_TEXT2IMG', modelId, params: { prompt, width: 256, height: 320, count: 1 } },
        })
        expect(res.ok(), await res.text()).toBeTruthy()
        return (await res.json()).data.id as string
      }),
    )
    for (const id of batch) {
      await expect.poll(async () => (await (await request.get(`/api/tasks/${id}`, { headers: auth })).json()).data.status, { timeout: 30_000 }).toBe('SUCCESS')
    }
    ids.push(...batch)
  }
  return ids
}

async function publish(request: APIRequestContext, token: string, taskId: string): Promise<string> {
  const res = await request.post(`/api/tasks/${taskId}/publish`, { headers: { authorization: `Bearer ${token}` }, data: {} })
  expect(res.ok(), await res.text()).toBeTruthy()
  return (await res.json()).data.wallId
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000)
  const admin = await asAdmin(request)
  const created = await request.post('/api/admin/models', {
    headers: admin,
    data: { name: uniqueName('墙演示'), backend: 'demo', prices: { SD_TEXT2IMG: 1 }, options: { stepMs: 0 }, concurrency: 4, sort: -10 },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  modelId = (await created.json()).data.id
  const painter = await registerViaApi(request)
  await adjustPoints(request, painter.token, WORKS + 10)
  const ids = await generate(
    request,
    painter.token,
    Array.from({ length: WORKS }, (_, i) => `作品墙样例 ${i + 1} 号，山间云海`),
  )
  for (const id of ids) {
    const wallId = await publish(request, painter.token, id)
    expect((await request.post(`/api/admin/wall/${wallId}/approve`, { headers: admin })).ok()).toBeTruthy()
  }
  // One recommended, for the landing page's samples.
  expect((await request.post(`/api/admin/tasks/recommend/${ids[0]}`, { headers: admin })).ok()).toBeTruthy()
})

test('signed out, the landing page shows works from the wall', async ({ page }) => {
  await page.goto('/')
  const samples = page.getByRole('region', { name: '大家正在创作' })
  await expect(samples.getByTestId('wall-tile').first()).toBeVisible()
  expect(await samples.getByTestId('wall-tile').count()).toBeGreaterThan(3)
  await expect(page.getByRole('link', { name: '进入作品墙 →' })).toBeVisible()
})

test('the wall loads more as it scrolls; a work opens in the viewer with its prompt; 做同款 fills the creation form', async ({ page, request }) => {
  const visitor = await registerViaApi(request)
  await signInWithToken(page, visitor.token)
  await page.goto('/image_wall')
  const tiles = page.getByTestId('wall-tile')
  await expect(tiles.first()).toBeVisible()
  await expect(tiles).toHaveCount(30)
  // Every tile keeps its space before its image loads (its aspect ratio is known).
  const box = await tiles.first().boundingBox()
  expect(box!.height / box!.width).toBeCloseTo(320 / 256, 1)

  await page.getByText(/加载更多|没有更多了/).scrollIntoViewIfNeeded()
  await expect.poll(() => tiles.count()).toBeGreaterThan(30)

  await tiles.first().click()
  const panel = page.getByTestId('viewer-panel')
  await expect(panel).toBeVisible()
  const prompt = (await panel.getByTestId('viewer-prompt').textContent())!.trim()
  expect(prompt).toMatch(/山间云海/)
  await expect(panel.getByText('模型')).toBeVisible()
  await expect(panel.getByText('种子')).toBeVisible()
  // Keyboard: the next work, then back.
  await page.keyboard.press('ArrowRight')
  await expect(panel.getByTestId('viewer-prompt')).not.toHaveText(prompt)
  await page.keyboard.press('ArrowLeft')
  await expect(panel.getByTestId('viewer-prompt')).toHaveText(prompt)

  const like = panel.getByRole('button', { name: /点赞/ })
  await like.click()
  await expect(panel.getByRole('button', { name: /已赞 1/ })).toBeVisible()

  await panel.getByRole('button', { name: '做同款' }).click()
  await expect(page).toHaveURL(/\/text2img\?same=/)
  await expect(page.getByLabel('提示词', { exact: true })).toHaveValue(prompt)
})

test("the viewer never shows the previous work's facts while the next one's load", async ({ page }) => {
  await page.goto('/image_wall')
  await page.getByTestId('wall-tile').first().click()
  const panel = page.getByTestId('viewer-panel')
  await expect(panel.getByText('种子')).toBeVisible()
  // A slow network: the next work's facts take a second and a half.
  await page.route('**/api/wall/*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await route.fallback()
  })
  const prompt = (await panel.getByTestId('viewer-prompt').textContent())!.trim()
  await page.keyboard.press('ArrowRight')
  await expect(panel.getByTestId('viewer-prompt')).not.toHaveText(prompt)
  expect(await panel.getByText('种子').count()).toBe(0)
  await expect(panel.getByText('种子')).toBeVisible()
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('liked in the hot order, a work moves up the list and the viewer stays on it', async ({ page, request }) => {
  const visitor = await registerViaApi(request)
  await signInWithToken(page, visitor.token)
  await page.goto('/image_wall?sort=hot')
  const tiles = page.getByTestId('wall-tile')
  await expect(tiles).toHaveCount(30)
  // A work far down the hot order (no likes yet): one like puts it ahead of the others.
  await tiles.nth(20).click()
  const panel = page.getByTestId('viewer-panel')
  const prompt = (await panel.getByTestId('viewer-prompt').textContent())!.trim()
  const refetched = page.waitForResponse((r) => r.url().includes('/api/wall?') && r.url().includes('sort=hot'))
  await panel.getByRole('button', { name: /点赞/ }).click()
  await expect(panel.getByRole('button', { name: /已赞 1/ })).toBeVisible()
  await refetched
  await page.waitForTimeout(300) // the refetched list's render
  await expect(panel.getByTestId('viewer-prompt')).toHaveText(prompt)
  await expect(panel.getByRole('button', { name: /已赞 1/ })).toBeVisible()
})

test("我的收藏 never shows the last tab's works while it loads", async ({ page, request }) => {
  const visitor = await registerViaApi(request)
  await signInWithToken(page, visitor.token)
  await page.goto('/image_wall')
  await expect(page.getByTestId('wall-tile').first()).toBeVisible()
  await page.route('**/api/wall?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await route.fallback()
  })
  await page.getByRole('tab', { name: '我的收藏' }).click()
  await expect(page.getByText('加载中...')).toBeVisible()
  expect(await page.getByTestId('wall-tile').count()).toBe(0)
  await expect(page.getByText('还没有收藏作品，打开作品点“收藏”即可')).toBeVisible()
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('a user publishes a result, the admin approves the submission, and it appears on the wall', async ({ page, request }) => {
  const author = await registerViaApi(request)
  await adjustPoints(request, author.token, 5)
  const prompt = `${uniqueName('待审核作品')} 湖面的晨雾`
  const [taskId] = await generate(request, author.token, [prompt])

  // The owner publishes from the result viewer of their history.
  await signInWithToken(page, author.token)
  await page.goto('/text2img')
  await page
    .getByRole('button', { name: new RegExp(prompt.slice(0, 10)) })
    .first()
    .click()
  const panel = page.getByTestId('viewer-panel')
  await expect(panel.getByTestId('viewer-prompt')).toHaveText(prompt)
  await panel.getByRole('button', { name: '公开到作品墙' }).click()
  await expect(page.getByText('已提交，审核通过后显示在作品墙')).toBeVisible()
  await expect(panel.getByRole('button', { name: '取消公开' })).toBeVisible()
  await page.keyboard.press('Escape')

  const { authorization } = await asAdmin(request)
  await signInWithToken(page, authorization.replace('Bearer ', ''))
  await page.goto('/admin/image_wall_mana')
  const row = page.getByRole('row').filter({ hasText: prompt })
  await expect(row).toBeVisible()
  await row.getByRole('button', { name: '通过' }).click()
  await expect(page.getByText('已通过，作品已上墙')).toBeVisible()
  await expect(row).toBeHidden()

  await page.goto('/image_wall')
  await expect(page.getByRole('button', { name: `查看作品：${prompt.slice(0, 40)}` })).toBeVisible()
  expect(taskId).toBeTruthy()
})

import { expect, test, type APIRequestContext } from '@playwright/test'
import sharp from 'sharp'
import { startFakeMjProxy, type FakeMj } from '../fakes/mj-proxy'
import { startFakeChat } from '../fakes/openai-chat'
import { E2E_BASE_URL } from './support/constants'
import { asAdmin, uniqueName, userWithPoints } from './support/session'

let fake: FakeMj
let modelId = ''
const PRICES = { MJ_IMAGINE: 5, MJ_UPSCALE: 2, MJ_VARIATION: 4, MJ_REROLL: 4, MJ_ZOOM: 3, MJ_PAN: 3, MJ_MODAL: 6, MJ_BLEND: 6, MJ_DESCRIBE: 2 }

/** Site settings through the admin API (the translator's address and key). */
async function configure(request: APIRequestContext, settings: Record<string, string | boolean>) {
  const headers = await asAdmin(request)
  for (const [name, value] of Object.entries(settings)) {
    const res = await request.patch(`/api/site-config/${name}`, { data: { value }, headers })
    expect(res.ok(), await res.text()).toBeTruthy()
  }
}

test.beforeAll(async ({ request }) => {
  // Slow enough to watch: about half a second per progress step. The proxy calls the site's notify hook.
  fake = await startFakeMjProxy({ secret: 'e2e-mj-secret', stepMs: 450 })
  const created = await request.post('/api/admin/models', {
    headers: await asAdmin(request),
    data: {
      name: uniqueName('MJ测试'),
      type: 'MID_JOURNEY',
      backend: 'mj-proxy',
      endpoint: fake.url,
      secret: 'e2e-mj-secret',
      prices: PRICES,
      options: { pollIntervalMs: 400, notifyBaseUrl: E2E_BASE_URL, speeds: ['fast', 'relax'] },
      concurrency: 3,
      sort: 60,
    },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  modelId = (await created.json()).data.id
})

test.afterAll(async ({ request }) => {
  await request.patch(`/api/admin/models/${modelId}`, { headers: await asAdmin(request), data: { enabled: false } })
  await fake.close()
})

test('a user runs imagine on /mj, watches the progress, presses U1 and V2 and gets both results', async ({ page, request }) => {
  test.setTimeout(120_000)
  const user = await userWithPoints(page, request, 100)
  await page.goto('/mj')
  await expect(page.getByRole('heading', { name: 'Midjourney' })).toBeVisible()
  await page.getByLabel('提示词', { exact: true }).fill('a cozy cabin under a snowy mountain, warm light')
  await page.getByRole('group', { name: '画面比例' }).getByRole('button', { name: '16:9' }).click()
  await page.getByLabel('模型版本').selectOption({ label: 'Midjourney V6.1' })
  await page
    .getByRole('group', { name: '速度模式' })
    .getByRole('button', { name: /--relax/ })
    .click()
  await expect(page.getByTestId('mj-command')).toContainText('a cozy cabin under a snowy mountain, warm light --ar 16:9 --v 6.1 --relax')
  await expect(page.getByTestId('task-cost')).toHaveText('5')
  await page.getByRole('button', { name: '开始生成' }).click()

  await expect(page.getByRole('progressbar', { name: '生成进度' })).toBeVisible()
  await expect(page.getByRole('img', { name: '生成预览' })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await expect(page.getByRole('img', { name: '生成结果 1' })).toBeVisible()
  expect(fake.bodies('/mj/submit/imagine').at(-1)!.prompt).toBe('a cozy cabin under a snowy mountain, warm light --ar 16:9 --v 6.1 --relax')
  const actions = page.getByRole('group', { name: 'Midjourney 操作' })
  for (const name of ['U1', 'U2', 'U3', 'U4', '🔄', 'V1', 'V2', 'V3', 'V4']) await expect(actions.getByRole('button', { name, exact: true })).toBeVisible()

  // U1: the upscaled first cell, in its own task.
  await actions.getByRole('button', { name: 'U1', exact: true }).click()
  await expect(page.getByText('放大 U1', { exact: true }).first()).toBeVisible()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  const upscaled = page.getByRole('img', { name: '生成结果 1' })
  await expect(upscaled).toBeVisible()
  const pressed = fake.bodies('/mj/submit/action').at(-1)!
  const bytes = await (await request.get(`${E2E_BASE_URL}${await upscaled.getAttribute('src')}`)).body()
  const { data } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  expect((data.readUInt8(0) << 16) | (data.readUInt8(1) << 8) | data.readUInt8(2)).toBe(fake.coloursOf(String(pressed.taskId))[0])
  await expect(page.getByRole('group', { name: 'Midjourney 操作' }).getByRole('button', { name: /Vary \(Strong\)/ })).toBeVisible()

  // Back to the grid, then V2: a new grid.
  await page.getByRole('button', { name: '← 上一步' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功')
  await page.getByRole('group', { name: 'Midjourney 操作' }).getByRole('button', { name: 'V2', exact: true }).click()
  await expect(page.getByText('变体 V2', { exact: true }).first()).toBeVisible()
  await expect(page.getByRole('progressbar', { name: '生成进度' })).toBeVisible()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await expect(page.getByRole('group', { name: 'Midjourney 操作' }).getByRole('button', { name: 'U4', exact: true })).toBeVisible()
  expect(fake.bodies('/mj/submit/action').at(-1)).toMatchObject({ taskId: pressed.taskId, customId: expect.stringMatching(/^MJ::JOB::variation::2::/) })

  // The history shows the tree: the imagine with both button tasks under it.
  const tree = page.getByRole('article').filter({ hasText: 'a cozy cabin under a snowy mountain' })
  await expect(tree.getByRole('button', { name: /放大 U1/ })).toBeVisible()
  await expect(tree.getByRole('button', { name: /变体 V2/ })).toBeVisible()
  const profile = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  expect(profile.points).toBe(100 - 5 - 2 - 4)
  // The proxy's callbacks reached the site and were answered.
  expect(fake.deliveries.some((d) => d.ok)).toBe(true)
})

test('a Chinese prompt is translated before submitting, and the English is shown with the task', async ({ page, request }) => {
  test.setTimeout(60_000)
  // The translator is an OpenAI-compatible chat endpoint: a fake one, started here, that the site calls.
  const chat = await startFakeChat({ 一座雪山下的温馨小木屋: 'a cozy cabin under a snowy mountain' }, 'sk-e2e-translate')
  try {
    await configure(request, { TRANSLATE_ENABLED: true, TRANSLATE_API_BASE: chat.url, TRANSLATE_API_KEY: 'sk-e2e-translate', TRANSLATE_MODEL: 'gpt-4o-mini' })
    await userWithPoints(page, request, 20)
    // 我的 MJ 作品's first read fails: it says so, and 重试 reads it again.
    let treesLost = false
    await page.route(
      (url) => url.pathname === '/api/mj/tasks',
      (route) => {
        if (treesLost) return route.fallback()
        treesLost = true
        return route.fulfill({ status: 502, body: 'Bad Gateway' })
      },
    )
    await page.goto('/mj')
    await expect(page.getByText('可以直接写中文，提交前会自动翻译成英文')).toBeVisible()
    await expect(page.getByText('加载失败，请稍后重试')).toBeVisible()
    await page.getByRole('button', { name: '重试' }).click()
    await expect(page.getByText('还没有 Midjourney 作品，写下提示词开始创作吧')).toBeVisible()
    await page.getByLabel('提示词', { exact: true }).fill('一座雪山下的温馨小木屋')
    await page.getByRole('button', { name: '开始生成' }).click()
    await expect(page.getByTestId('mj-translated')).toHaveText('a cozy cabin under a snowy mountain')
    await expect.poll(() => fake.bodies('/mj/submit/imagine').at(-1)?.prompt, { timeout: 20_000 }).toBe('a cozy cabin under a snowy mountain --ar 1:1')
    expect(chat.calls.some((c) => c.path === '/v1/chat/completions')).toBe(true)
  } finally {
    await configure(request, { TRANSLATE_ENABLED: false, TRANSLATE_API_BASE: '', TRANSLATE_API_KEY: '' })
    await chat.close()
  }
})

import { expect, test, type APIRequestContext } from '@playwright/test'
import sharp from 'sharp'
import { adminToken, asAdmin, signInWithToken, uniqueName, userWithPoints } from './support/session'
import { pauseWorker, resumeWorker } from './support/worker'

async function enabledMjModels(request: APIRequestContext): Promise<string[]> {
  const models = (await (await request.get('/api/models')).json()).data as { id: string; type: string }[]
  return models.filter((m) => m.type === 'MID_JOURNEY').map((m) => m.id)
}

test('without a Midjourney model, /mj says so and MJ 绘画 is not offered; with one it is', async ({ page, request }) => {
  expect(await enabledMjModels(request), 'another spec left an MJ model enabled').toEqual([])
  await userWithPoints(page, request, 20)
  await page.goto('/mj')
  await expect(page.getByRole('heading', { name: '还没有可用的 Midjourney 模型' })).toBeVisible()
  await expect(page.getByText('管理员可以在')).toContainText('模型管理')
  await expect(page.getByRole('button', { name: '开始生成' })).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: '主导航' }).first().getByRole('link', { name: 'AI 创作' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'MJ 绘画' })).toHaveCount(0)
  await page.goto('/')
  await expect(page.getByRole('link', { name: /AI 创作/ }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: /MJ 绘画/ })).toHaveCount(0)

  const headers = await asAdmin(request)
  const created = await request.post('/api/admin/models', {
    headers,
    data: {
      name: uniqueName('MJ导航'),
      type: 'MID_JOURNEY',
      backend: 'mj-proxy',
      endpoint: 'http://127.0.0.1:9',
      secret: 'x',
      prices: { MJ_IMAGINE: 5 },
      concurrency: 1,
      sort: 90,
    },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const id = (await created.json()).data.id
  try {
    await page.reload()
    await expect(page.getByRole('navigation', { name: '主导航' }).first().getByRole('link', { name: 'MJ 绘画' })).toBeVisible()
    await page.goto('/mj')
    await expect(page.getByRole('button', { name: '开始生成' })).toBeVisible()
    await expect(page.getByText('还没有可用的 Midjourney 模型')).toHaveCount(0)
  } finally {
    await request.patch(`/api/admin/models/${id}`, { headers, data: { enabled: false } })
  }
})

test('图生图 on /text2img_v2: the demo renderer recolours the uploaded picture', async ({ page, request }) => {
  const user = await userWithPoints(page, request, 20)
  await page.goto('/text2img_v2')
  await page.getByRole('tab', { name: '图生图' }).click()
  await expect(page).toHaveURL(/mode=img2img$/)
  const picture = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#f8fafc' } })
    .composite([
      {
        input: await sharp({ create: { width: 160, height: 120, channels: 3, background: '#111827' } })
          .png()
          .toBuffer(),
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toBuffer()
  await page.getByLabel('参考图').setInputFiles({ name: 'start.png', mimeType: 'image/png', buffer: picture })
  await expect(page.getByRole('img', { name: '参考图' })).toBeVisible()
  const models = page.getByLabel('模型')
  if (await models.count())
    await models.selectOption(
      (await models
        .locator('option', { hasText: /^演示渲染器（/ })
        .first()
        .getAttribute('value'))!,
    )
  await page.getByLabel('提示词', { exact: true }).fill('秋天的枫叶')
  await page.getByRole('button', { name: '立即生成' }).click()
  const result = page.getByRole('img', { name: '生成结果 1' })
  await expect(result).toBeVisible({ timeout: 30_000 })

  // The picture's own shape and layout come back: the dark corner is still the darkest part.
  const src = (await result.getAttribute('src'))!
  const bytes = Buffer.from(await (await request.get(src)).body())
  const { data, info } = await sharp(bytes).resize(32, 24, { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true })
  expect(info.width / info.height).toBeCloseTo(4 / 3, 1)
  const at = (x: number, y: number) => data.readUInt8(y * info.width + x)
  expect(at(3, 3)).toBeLessThan(at(28, 4) - 60)
  const tasks = (await (await request.get('/api/tasks', { headers: { authorization: `Bearer ${user.token}` } })).json()).data.list
  expect(tasks[0]).toMatchObject({ type: 'SD_IMG2IMG', status: 'SUCCESS' })
})

test('the console shows a cancelled task’s error by its meaning, not its code', async ({ page, request }) => {
  const user = await userWithPoints(page, request, 20)
  const headers = await asAdmin(request)
  await pauseWorker()
  let taskId = ''
  try {
    const submitted = await request.post('/api/tasks', {
      headers: { authorization: `Bearer ${user.token}` },
      data: { type: 'SD_TEXT2IMG', params: { prompt: 'a quiet harbour', count: 1 } },
    })
    expect(submitted.ok(), await submitted.text()).toBeTruthy()
    taskId = (await submitted.json()).data.id
    expect((await request.post(`/api/admin/tasks/${taskId}/cancel`, { headers })).ok()).toBeTruthy()
  } finally {
    await resumeWorker()
  }
  await signInWithToken(page, await adminToken(request))
  await page.goto('/admin/task_mana')
  await page.getByLabel('搜索用户').fill(user.username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: user.username })
  await expect(row).toContainText('已取消')
  await row.getByRole('button', { name: '详情' }).click()
  const detail = page.getByRole('dialog', { name: '任务详情' })
  await expect(detail.getByText('管理员取消', { exact: true })).toBeVisible()
  await expect(detail.getByText(/CANCELED_BY_ADMIN/)).toHaveCount(0)
  await expect(detail.getByText('采样步数')).toBeVisible()
  await expect(detail.getByText('negativePrompt')).toHaveCount(0)
})

import { expect, test, type Page } from '@playwright/test'
import sharp from 'sharp'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { asAdmin, makeMember, uniqueName, userWithPoints } from './support/session'

let fakeSd: FakeSd
let sdModelId = ''

/**
 * On /img_inpaint: uploads a 256×256 picture of one colour, paints one stroke from `from` to
 * `to` (fractions of the canvas), picks the SD WebUI model and writes the prompt.
 */
async function paintOnInpaint(page: Page, background: string, from: [number, number], to: [number, number], prompt: string) {
  await page.goto('/img_inpaint')
  const picture = await sharp({ create: { width: 256, height: 256, channels: 3, background } })
    .png()
    .toBuffer()
  await page.getByLabel('原图').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: picture })
  const canvas = page.getByLabel('蒙版画布')
  await expect(canvas).toBeVisible()
  const box = (await canvas.boundingBox())!
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1])
  await page.mouse.down()
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 12 })
  await page.mouse.up()
  await page.getByLabel('模型').selectOption(sdModelId)
  await page.getByLabel('提示词', { exact: true }).fill(prompt)
}

test.beforeAll(async ({ request }) => {
  fakeSd = await startFakeSdWebui({ stepMs: 60 })
  const headers = await asAdmin(request)
  const created = await request.post('/api/admin/models', {
    headers,
    data: {
      name: uniqueName('SD测试'),
      backend: 'sd-webui',
      endpoint: fakeSd.url,
      checkpoint: 'sd15.safetensors',
      prices: { SD_TEXT2IMG: 3, SD_IMGINPAINT: 4 },
      concurrency: 1,
      sort: 50,
    },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  sdModelId = (await created.json()).data.id
})

test.afterAll(async ({ request }) => {
  await request.patch(`/api/admin/models/${sdModelId}`, { headers: await asAdmin(request), data: { enabled: false } })
  await fakeSd.close()
})

test('a user generates on /text2img with the demo renderer, watches the progress and downloads the result', async ({ page, request }) => {
  await userWithPoints(page, request, 100)
  await page.goto('/text2img')
  await page.getByLabel('模型').selectOption({ label: '演示渲染器（1 积分/张）' })
  await page.getByLabel('提示词', { exact: true }).fill('夕阳下的海边小镇，水彩风格')
  await page.getByRole('button', { name: '2 张' }).click()
  await expect(page.getByTestId('task-cost')).toHaveText('2')
  await page.getByRole('button', { name: '立即生成' }).click()

  const bar = page.getByRole('progressbar')
  await expect(bar).toBeVisible()
  await expect(page.getByTestId('task-status')).toContainText(/排队中|提交中|生成中/)
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  const results = page.getByRole('img', { name: /生成结果/ })
  await expect(results).toHaveCount(2)

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: '下载' }).first().click()])
  expect(download.suggestedFilename()).toMatch(/\.png$/)
  const bytes = await sharp(await download.path()).metadata()
  expect(bytes.format).toBe('png')
  await expect(page.getByRole('heading', { name: '我的作品' })).toBeVisible()
  await expect(page.getByRole('button', { name: /夕阳下的海边小镇/ })).toBeVisible()
})

test('a work deleted from 我的作品 leaves the history and the result beside the form, without an error', async ({ page, request }) => {
  await userWithPoints(page, request, 10)
  await page.goto('/text2img')
  await page.getByLabel('模型').selectOption({ label: '演示渲染器（1 积分/张）' })
  await page.getByLabel('提示词', { exact: true }).fill('雪山脚下的木屋')
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })

  // The tile opens the work in the viewer and beside the form; 删除 in the viewer.
  const tile = page.getByRole('button', { name: /雪山脚下的木屋/ })
  await tile.click()
  const viewer = page.getByTestId('viewer-panel')
  await viewer.getByRole('button', { name: '删除' }).click()
  await viewer.getByRole('button', { name: '确定删除' }).click()
  await expect(page.getByText('已删除')).toBeVisible()
  await expect(tile).toHaveCount(0)
  await expect(page.getByTestId('task-status')).toHaveCount(0)
  await page.waitForTimeout(500)
  await expect(page.getByText('任务不存在')).toHaveCount(0)
})

test('an image member sees and pays the member price', async ({ page, request }) => {
  const user = await userWithPoints(page, request, 10)
  await makeMember(request, user.token, { days: 30, discountPercent: 50 })

  await page.goto('/text2img')
  await page.getByLabel('模型').selectOption(sdModelId)
  // 3 points an image, half off, rounded up: 2.
  await expect(page.getByTestId('task-cost')).toHaveText('2')
  await expect(page.getByText('（会员价，原价 3）')).toBeVisible()
  await page.getByLabel('提示词', { exact: true }).fill('a quiet harbour')
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await expect(page.getByText('当前 8 积分')).toBeVisible()
})

test('a user generates on /text2img with SD WebUI and sees its image', async ({ page, request }) => {
  await userWithPoints(page, request, 100)
  await page.goto('/text2img')
  await page.getByLabel('模型').selectOption(sdModelId)
  await expect(page.getByTestId('task-cost')).toHaveText('3')
  await page.getByLabel('提示词', { exact: true }).fill('a lighthouse in a storm')
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByRole('progressbar')).toBeVisible()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await expect(page.getByRole('img', { name: '生成结果 1' })).toBeVisible()
  const sent = fakeSd.calls.filter((c) => c.path === '/sdapi/v1/txt2img').at(-1)!.body as Record<string, unknown>
  expect(sent).toMatchObject({ prompt: 'a lighthouse in a storm', override_settings: { sd_model_checkpoint: 'sd15.safetensors' } })
})

test('with the event stream refused, the page polls: the task ends 失败 and its refund shows in the points', async ({ page, request }) => {
  fakeSd.set({ oomPrompts: ['an enormous poster'] })
  await userWithPoints(page, request, 10)
  // The event stream is refused (a proxy that does not pass it, say): polls alone follow the task.
  await page.route('**/api/tasks/events', (route) => route.abort())
  await page.goto('/text2img')
  await page.getByLabel('模型').selectOption(sdModelId)
  await page.getByLabel('提示词', { exact: true }).fill('an enormous poster')
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByText('当前 7 积分')).toBeVisible()
  await expect(page.getByTestId('task-status')).toContainText('失败', { timeout: 30_000 })
  await expect(page.getByText('当前 10 积分')).toBeVisible()
  fakeSd.set({ oomPrompts: [] })
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('a task whose first read after submitting fails is still followed to its result', async ({ page, request }) => {
  await userWithPoints(page, request, 10)
  // 我的作品's first read fails too: it says so, and the submission below reloads it.
  let listLost = false
  await page.route(
    (url) => url.pathname === '/api/tasks',
    (route) => {
      if (listLost || route.request().method() !== 'GET') return route.fallback()
      listLost = true
      return route.fulfill({ status: 502, body: 'Bad Gateway' })
    },
  )
  await page.goto('/text2img')
  await expect(page.getByText('加载失败，请稍后重试')).toBeVisible()
  await page.getByLabel('模型').selectOption({ label: '演示渲染器（1 积分/张）' })
  await page.getByLabel('提示词', { exact: true }).fill('雨后的石板路')
  // The page's first read of the new task is lost (a 502 while the site restarts, say).
  let lost = false
  await page.route('**/api/tasks/*', (route) => {
    if (lost || route.request().url().endsWith('/events')) return route.fallback()
    lost = true
    return route.fulfill({ status: 502, body: 'Bad Gateway' })
  })
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await expect(page.getByRole('img', { name: '生成结果 1' })).toBeVisible()
  await expect(page.getByRole('button', { name: /雨后的石板路/ })).toBeVisible()
  await expect(page.getByText('加载失败，请稍后重试')).toBeHidden()
  expect(lost).toBe(true)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('a user paints a mask on /img_inpaint and the backend receives exactly that mask', async ({ page, request }) => {
  await userWithPoints(page, request, 100)
  // A horizontal stroke across the middle of the picture.
  await paintOnInpaint(page, '#3b82f6', [0.2, 0.5], [0.8, 0.5], 'a red balloon')
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })

  const sent = fakeSd.calls.filter((c) => c.path === '/sdapi/v1/img2img').at(-1)!.body as { mask: string; init_images: string[] }
  const mask = await sharp(Buffer.from(sent.mask, 'base64')).greyscale().raw().toBuffer({ resolveWithObject: true })
  const at = (x: number, y: number) => mask.data[Math.round(y) * mask.info.width + Math.round(x)]
  expect(mask.info.width).toBe(256)
  expect(at(128, 128)).toBe(255) // painted
  expect(at(128, 20)).toBe(0) // untouched
  expect(at(20, 128)).toBe(0)
  expect(sent.init_images).toHaveLength(1)
})

test('局部重绘 pressed again after a lost answer is the same task, charged once', async ({ page, request }) => {
  const user = await userWithPoints(page, request, 100)
  await paintOnInpaint(page, '#10b981', [0.3, 0.3], [0.7, 0.7], 'a paper boat')

  // The first press reaches the site and is charged, but its answer is lost on the way back.
  const sent: { key: string | undefined; body: unknown }[] = []
  await page.route('**/api/tasks', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback()
    sent.push({ key: (await route.request().allHeaders())['idempotency-key'], body: route.request().postDataJSON() })
    if (sent.length > 1) return route.fallback()
    await route.fetch()
    await route.abort('failed')
  })
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByText('网络异常，请检查网络或联系管理员')).toBeVisible()
  await page.getByRole('button', { name: '立即生成' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  expect(sent).toHaveLength(2)
  expect(sent[1]).toEqual(sent[0])
  const profile = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  expect(profile.points).toBe(96)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})
